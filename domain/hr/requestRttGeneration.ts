import { newId } from '../../entities/base';
import { hrLeaveQueue } from '../../queues/hr';
import type { TenantContext } from '../context';
import { checkEndedMonth, monthBounds, previousMonth } from '../../lib/calendar';

/** Enqueues the RTT generation of a month that has ended (default the previous one) for the organisation. */
export async function requestRttGeneration(
  ctx: TenantContext,
  period?: string,
): Promise<{ period: string; jobId: string }> {
  const month = period ?? previousMonth();
  monthBounds(month);
  checkEndedMonth(month);
  // A fresh id each time: a month asked again (say after a schedule was added) runs again; the ledger credits once.
  const jobId = `rtt-${ctx.tenantId}-${month}-${newId()}`;
  await ctx.services.queues.add(hrLeaveQueue, { task: 'rtt', period: month, tenantId: ctx.tenantId }, { jobId });
  return { period: month, jobId };
}
