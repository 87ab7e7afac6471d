import { newId } from '../../entities/base';
import { DAY_MS } from '../../lib/calendar';
import { invalidField } from '../../lib/errors';
import { complianceQueue } from '../../queues/hr';
import type { TenantContext } from '../context';
import { findEmployee } from './lookup';
import { MAX_SCAN_DAYS } from './scanCompliance';

/** Enqueues a compliance scan of the organisation (or one employee) on local days `from`..`to`. */
export async function requestComplianceScan(
  ctx: TenantContext,
  props: { employeeId?: string; from: string; to: string },
): Promise<{ jobId: string }> {
  if (props.to < props.from) throw invalidField('to', 'must not be before from');
  if ((Date.parse(props.to) - Date.parse(props.from)) / DAY_MS > MAX_SCAN_DAYS)
    throw invalidField('to', `a scan covers at most ${MAX_SCAN_DAYS} days`);
  if (props.employeeId) await findEmployee(ctx.em, props.employeeId);
  const jobId = `compliance-${ctx.tenantId}-${newId()}`;
  await ctx.services.queues.add(
    complianceQueue,
    {
      tenantId: ctx.tenantId,
      from: props.from,
      to: props.to,
      ...(props.employeeId ? { employeeIds: [props.employeeId] } : {}),
    },
    { jobId },
  );
  return { jobId };
}
