import { registerHealthSignal, type SignalReading } from './healthSignals';
import { activityCounts, lastContacts, openDealCounts, overdueTaskCounts } from './store/health';
import { DAY, daysSince, momentumValue, overdueValue, recencyValue, trendValue } from './crmSignalValues';

/** The CRM's health signals (see healthSignals.ts for the score, crmSignalValues.ts for each value). */
registerHealthSignal({
  key: 'recency',
  label: 'Recency of the last contact',
  weight: 30,
  async compute(ctx, ids, now) {
    const rows = await lastContacts(ctx.em, ctx.tenantId, ids);
    return new Map(
      rows.map((r): [string, SignalReading] => {
        const days = daysSince(r.last_contact_at && new Date(r.last_contact_at), now);
        return [
          r.id,
          {
            value: recencyValue(days),
            detail: days === null ? 'never contacted' : `last contact ${days} days ago`,
            facts: { daysSinceLastContact: days },
          },
        ];
      }),
    );
  },
});

registerHealthSignal({
  key: 'overdue_tasks',
  label: 'Overdue follow-ups',
  weight: 20,
  async compute(ctx, ids, now) {
    const rows = await overdueTaskCounts(ctx.em, ctx.tenantId, ids, now);
    const counts = new Map(rows.map((r) => [r.customer_id, r.n]));
    return new Map(
      ids.map((id): [string, SignalReading] => {
        const n = counts.get(id) ?? 0;
        return [
          id,
          {
            value: overdueValue(n),
            detail: n ? `${n} overdue follow-up${n > 1 ? 's' : ''}` : 'no overdue follow-up',
            facts: { overdue: n },
          },
        ];
      }),
    );
  },
});

registerHealthSignal({
  key: 'deal_momentum',
  label: 'Open deal momentum',
  weight: 15,
  async compute(ctx, ids, now) {
    const rows = await openDealCounts(ctx.em, ctx.tenantId, ids, new Date(now.getTime() - 30 * DAY));
    return new Map(
      rows.map((r): [string, SignalReading] => [
        r.customer_id,
        {
          value: momentumValue(r.moved, r.open),
          detail: `${r.moved} of ${r.open} open deals moved in the last 30 days`,
          facts: { openDeals: r.open, movedLast30Days: r.moved },
        },
      ]),
    );
  },
});

registerHealthSignal({
  key: 'activity_trend',
  label: 'Activity trend',
  weight: 10,
  async compute(ctx, ids, now) {
    const rows = await activityCounts(ctx.em, ctx.tenantId, ids, {
      from: new Date(now.getTime() - 60 * DAY),
      split: new Date(now.getTime() - 30 * DAY),
      until: now,
    });
    const counts = new Map(rows.map((r) => [r.customer_id, r]));
    return new Map(
      ids.map((id): [string, SignalReading] => {
        const { recent, previous } = counts.get(id) ?? { recent: 0, previous: 0 };
        return [
          id,
          {
            value: trendValue(recent, previous),
            detail: `${recent} activities in the last 30 days, ${previous} in the 30 before`,
            facts: { last30Days: recent, previous30Days: previous },
          },
        ];
      }),
    );
  },
});
