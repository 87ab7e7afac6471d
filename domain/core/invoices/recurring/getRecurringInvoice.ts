import type { RecurringInvoice, RecurringInvoiceRun } from '../../../../entities/core/recurringInvoice';
import type { TenantContext } from '../../../context';
import { findSchedule, runsOf } from './store';

/** How many of the latest invoiced periods a recurring invoice's detail lists. */
export const RUNS_SHOWN = 50;

export interface RecurringInvoiceDetail {
  schedule: RecurringInvoice;
  runs: RecurringInvoiceRun[];
}

export async function recurringDetailOf(
  ctx: TenantContext,
  schedule: RecurringInvoice,
): Promise<RecurringInvoiceDetail> {
  return { schedule, runs: await runsOf(ctx.em, schedule.id, RUNS_SHOWN) };
}

/** A recurring invoice with its latest invoiced periods (404 in another organisation). */
export async function getRecurringInvoice(ctx: TenantContext, id: string): Promise<RecurringInvoiceDetail> {
  return recurringDetailOf(ctx, await findSchedule(ctx.em, id));
}
