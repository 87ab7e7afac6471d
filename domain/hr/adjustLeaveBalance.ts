import { HrLeaveType, type HrLeaveLedgerEntry } from '../../entities/hr/leave';
import { conflict, forbidden, notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { appendMovement, balanceOf, lockEmployee } from './store/leave';
import { findEmployee } from './lookup';

export interface AdjustLeaveProps {
  leaveTypeId: string;
  /** Signed days, in half days: credits positive, debits negative. */
  days: number;
  reason: string;
}

/**
 * A manual correction of a balance (a carried-over balance at hire, a payroll settlement ...): one `adjustment`
 * movement with its reason and author, never an edit of earlier rows. A debit may not take the balance below
 * zero (409 `insufficient_balance`); nobody adjusts their own balance (403 `own_balance`).
 */
export async function adjustLeaveBalance(
  ctx: TenantContext,
  employeeId: string,
  props: AdjustLeaveProps,
): Promise<HrLeaveLedgerEntry> {
  const employee = await findEmployee(ctx.em, employeeId);
  if (ctx.userId && !employee.userProvisional && employee.userId === ctx.userId)
    throw forbidden('own_balance', 'Nobody adjusts their own leave balance');
  const type = await ctx.em.findOne(HrLeaveType, { id: props.leaveTypeId });
  if (!type) throw notFound('Leave type');
  if (!type.tracksBalance) throw conflict('leave_type_untracked', `Leave type ${type.code} keeps no balance`);
  return ctx.em.transactional(async (em) => {
    await lockEmployee(em, employee.id);
    if (props.days < 0 && (await balanceOf(em, employee.id, type.id)) + props.days < 0)
      throw conflict('insufficient_balance', 'The adjustment would take the balance below zero');
    const entry = appendMovement(em, {
      tenantId: ctx.tenantId,
      employeeId: employee.id,
      leaveTypeId: type.id,
      kind: 'adjustment',
      days: props.days,
      reason: props.reason.trim(),
      createdBy: ctx.userId,
    });
    audit(em, {
      action: 'hr.leave.adjusted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_employee',
      targetId: employee.id,
      data: { leaveTypeId: type.id, days: props.days },
    });
    return entry;
  });
}
