import { registerHealthSignal, type SignalReading } from './healthSignals';

/**
 * The CRM's health signals (see healthSignals.ts for the score). Each value is 0 (bad) to 1 (healthy):
 *
 *  recency (30)          last contact (call, e-mail, meeting done) d days ago: 1 up to 14 days, falling linearly
 *                        to 0 at 90 days; 0 when never contacted
 *  overdue_tasks (20)    n open follow-ups past their due date: 1 - 0.25 n (0 from 4)
 *  deal_momentum (15)    share of the open deals that entered their stage (created or moved) in the last 30 days;
 *                        does not apply without open deals
 *  activity_trend (10)   activities of the last 30 days (r) against the 30 before (p): 0.5 + (r - p) / (2 max(r, p)),
 *                        so steady is 0.5, growing up to 1, fading down to 0; 0 when both are 0
 */
const DAY = 86_400_000;
const clamp = (v: number) => Math.min(1, Math.max(0, v));
const round = (v: number) => Math.round(v * 1000) / 1000;

export const recencyValue = (days: number | null) => (days === null ? 0 : days <= 14 ? 1 : days >= 90 ? 0 : round(1 - (days - 14) / 76));
export const overdueValue = (n: number) => clamp(1 - 0.25 * n);
export const trendValue = (recent: number, previous: number) => (recent === 0 && previous === 0 ? 0 : round(clamp(0.5 + (recent - previous) / (2 * Math.max(recent, previous)))));

registerHealthSignal({
  key: 'recency',
  label: 'Recency of the last contact',
  weight: 30,
  async compute(ctx, ids, now) {
    const rows = await ctx.em.execute<{ id: string; last_contact_at: Date | null }[]>('select id, last_contact_at from crm_customers where tenant_id = ? and id in (?)', [ctx.tenantId, ids]);
    return new Map(
      rows.map((r): [string, SignalReading] => {
        const days = r.last_contact_at ? Math.max(0, Math.floor((now.getTime() - new Date(r.last_contact_at).getTime()) / DAY)) : null;
        return [r.id, { value: recencyValue(days), detail: days === null ? 'never contacted' : `last contact ${days} days ago`, facts: { daysSinceLastContact: days } }];
      }),
    );
  },
});

registerHealthSignal({
  key: 'overdue_tasks',
  label: 'Overdue follow-ups',
  weight: 20,
  async compute(ctx, ids, now) {
    const rows = await ctx.em.execute<{ customer_id: string; n: number }[]>(
      'select customer_id, count(*)::int as n from crm_activities where tenant_id = ? and customer_id in (?) and completed_at is null and due_at < ? group by customer_id',
      [ctx.tenantId, ids, now],
    );
    const counts = new Map(rows.map((r) => [r.customer_id, r.n]));
    return new Map(ids.map((id): [string, SignalReading] => {
      const n = counts.get(id) ?? 0;
      return [id, { value: overdueValue(n), detail: n ? `${n} overdue follow-up${n > 1 ? 's' : ''}` : 'no overdue follow-up', facts: { overdue: n } }];
    }));
  },
});

registerHealthSignal({
  key: 'deal_momentum',
  label: 'Open deal momentum',
  weight: 15,
  async compute(ctx, ids, now) {
    const rows = await ctx.em.execute<{ customer_id: string; open: number; moved: number }[]>(
      `select customer_id, count(*)::int as open, count(*) filter (where stage_changed_at >= ?)::int as moved from crm_deals where tenant_id = ? and customer_id in (?) and status = 'open' group by customer_id`,
      [new Date(now.getTime() - 30 * DAY), ctx.tenantId, ids],
    );
    return new Map(rows.map((r): [string, SignalReading] => [r.customer_id, { value: round(r.moved / r.open), detail: `${r.moved} of ${r.open} open deals moved in the last 30 days`, facts: { openDeals: r.open, movedLast30Days: r.moved } }]));
  },
});

registerHealthSignal({
  key: 'activity_trend',
  label: 'Activity trend',
  weight: 10,
  async compute(ctx, ids, now) {
    const rows = await ctx.em.execute<{ customer_id: string; recent: number; previous: number }[]>(
      `select customer_id, count(*) filter (where occurred_at >= ?)::int as recent, count(*) filter (where occurred_at < ?)::int as previous
         from crm_activities where tenant_id = ? and customer_id in (?) and occurred_at >= ? and occurred_at <= ? group by customer_id`,
      [new Date(now.getTime() - 30 * DAY), new Date(now.getTime() - 30 * DAY), ctx.tenantId, ids, new Date(now.getTime() - 60 * DAY), now],
    );
    const counts = new Map(rows.map((r) => [r.customer_id, r]));
    return new Map(ids.map((id): [string, SignalReading] => {
      const { recent, previous } = counts.get(id) ?? { recent: 0, previous: 0 };
      return [id, { value: trendValue(recent, previous), detail: `${recent} activities in the last 30 days, ${previous} in the 30 before`, facts: { last30Days: recent, previous30Days: previous } }];
    }));
  },
});
