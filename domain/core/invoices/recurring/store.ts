import { LockMode } from '@mikro-orm/core';
import { RecurringInvoice, RecurringInvoiceRun } from '../../../../entities/core/recurringInvoice';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { lean } from '../../../../lib/lean';

/** The statements of recurring invoices. No rule here: the use cases decide. */

/** The recurring invoice of the em's organisation, or 404. `lock` takes its row lock (inside a transaction). */
export async function findSchedule(em: Em, id: string, options: { lock?: boolean } = {}): Promise<RecurringInvoice> {
  const schedule = await em.findOne(
    RecurringInvoice,
    { id },
    options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {},
  );
  if (!schedule) throw notFound('Recurring invoice');
  return schedule;
}

/** $1 status, $2 customer, $3 cursor, $4 limit; newest first. */
export const schedulesPage = lean(RecurringInvoice, {
  where: `($1::text is null or status = $1) and ($2::uuid is null or customer_id = $2) and ($3::uuid is null or id < $3)`,
  orderBy: 'id desc',
  limitParam: '$4',
});

/** The invoices made by a recurring invoice, latest period first (at most `limit`). */
export const runsOf = (em: Em, scheduleId: string, limit: number) =>
  em.find(RecurringInvoiceRun, { scheduleId }, { orderBy: { periodIndex: 'desc' }, limit });

/** Active recurring invoices of every organisation whose next period's day has come, after `after` (id), in id order. */
export const dueSchedules = (em: Em, today: string, after: string, limit: number) =>
  em.execute<{ id: string; tenant_id: string }[]>(
    `select id, tenant_id from inv_recurring_invoices
     where status = 'active' and next_run_on <= ?::date and id > ?::uuid order by id limit ?`,
    [today, after, limit],
  );

/**
 * Records the invoice of one period, unless the period already has one (the unique key (schedule, period)
 * decides). True when this call inserted it.
 */
export async function claimPeriod(
  em: Em,
  row: {
    id: string;
    tenantId: string;
    scheduleId: string;
    periodIndex: number;
    start: string;
    end: string;
    invoiceId: string;
  },
): Promise<boolean> {
  const inserted = await em.execute<{ id: string }[]>(
    `insert into inv_recurring_runs (id, tenant_id, created_at, schedule_id, period_index, period_start, period_end, invoice_id)
     values (?, ?, now(), ?, ?, ?, ?, ?) on conflict (schedule_id, period_index) do nothing returning id`,
    [row.id, row.tenantId, row.scheduleId, row.periodIndex, row.start, row.end, row.invoiceId],
  );
  return inserted.length > 0;
}

/** How many periods a recurring invoice has invoiced, and the days its latest one covers. */
export async function invoicedPeriodsOf(
  em: Em,
  tenantId: string,
  scheduleId: string,
): Promise<{ count: number; last: { start: string; end: string } | null }> {
  const [row] = await em.execute<{ count: number; start: string | null; end: string | null }[]>(
    `select count(*)::int as count,
            (array_agg(period_start::text order by period_index desc))[1] as start,
            (array_agg(period_end::text order by period_index desc))[1] as "end"
     from inv_recurring_runs where tenant_id = ? and schedule_id = ?`,
    [tenantId, scheduleId],
  );
  return { count: row.count, last: row.start && row.end ? { start: row.start, end: row.end } : null };
}
