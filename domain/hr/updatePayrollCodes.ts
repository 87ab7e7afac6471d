import type { PayrollCodeMapping } from '../../entities/hr/payroll';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { listLeaveTypes } from './listLeaveTypes';
import { checkPayrollCodes, payrollCodesOf, type PayrollCodesValues } from './payrollCodes';
import { upsertPayrollCodes } from './store/payroll';

/**
 * Replaces the organisation's payroll code mapping (checkPayrollCodes). Audited. A month already closed keeps the
 * mapping it was closed with: its export does not change.
 */
export async function updatePayrollCodes(ctx: TenantContext, codes: PayrollCodeMapping): Promise<PayrollCodesValues> {
  const types = await listLeaveTypes(ctx);
  checkPayrollCodes(codes, new Set(types.map((t) => t.id)));
  await ctx.em.transactional(async (em) => {
    await upsertPayrollCodes(em, ctx.tenantId, codes, ctx.userId);
    audit(em, {
      action: 'hr.payroll_codes.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_payroll_codes',
      targetId: ctx.tenantId,
      data: { codes },
    });
  });
  ctx.em.clear();
  return payrollCodesOf(ctx);
}
