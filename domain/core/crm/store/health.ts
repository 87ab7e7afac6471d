import type { StoredSignal } from '../../../../entities/core/healthScore';
import type { Em } from '../../../../lib/db';
import { bound } from './sql';

/** When each customer was last contacted (null: never). */
export async function lastContacts(
  em: Em,
  tenantId: string,
  ids: string[],
): Promise<{ id: string; last_contact_at: Date | null }[]> {
  return em.execute<{ id: string; last_contact_at: Date | null }[]>(
    'select id, last_contact_at from crm_customers where tenant_id = ? and id in (?) and merged_into is null',
    [tenantId, ids],
  );
}

/** Open follow-ups due before `now`, by customer (customers without any absent). */
export async function overdueTaskCounts(
  em: Em,
  tenantId: string,
  ids: string[],
  now: Date,
): Promise<{ customer_id: string; n: number }[]> {
  return em.execute<{ customer_id: string; n: number }[]>(
    'select customer_id, count(*)::int as n from crm_activities where tenant_id = ? and customer_id in (?) and completed_at is null and due_at < ? group by customer_id',
    [tenantId, ids, now],
  );
}

/** Open deals by customer, and how many of them entered their stage since `since` (customers without any absent). */
export async function openDealCounts(
  em: Em,
  tenantId: string,
  ids: string[],
  since: Date,
): Promise<{ customer_id: string; open: number; moved: number }[]> {
  return em.execute<{ customer_id: string; open: number; moved: number }[]>(
    `select customer_id, count(*)::int as open, count(*) filter (where stage_changed_at >= ?)::int as moved from crm_deals where tenant_id = ? and customer_id in (?) and status = 'open' group by customer_id`,
    [since, tenantId, ids],
  );
}

/** Activities by customer that occurred in [split, until] (recent) and in [from, split) (previous). */
export async function activityCounts(
  em: Em,
  tenantId: string,
  ids: string[],
  window: { from: Date; split: Date; until: Date },
): Promise<{ customer_id: string; recent: number; previous: number }[]> {
  return em.execute<{ customer_id: string; recent: number; previous: number }[]>(
    `select customer_id, count(*) filter (where occurred_at >= ?)::int as recent, count(*) filter (where occurred_at < ?)::int as previous
       from crm_activities where tenant_id = ? and customer_id in (?) and occurred_at >= ? and occurred_at <= ? group by customer_id`,
    [window.split, window.split, tenantId, ids, window.from, window.until],
  );
}

export interface HealthScoreRow {
  customerId: string;
  score: number;
  risk: string;
  signals: StoredSignal[];
}

/** Stores the scores of a batch (insert or replace by customer); the batch travels as one JSON document, bound. */
export async function saveHealthScores(
  em: Em,
  tenantId: string,
  computedAt: Date,
  rows: HealthScoreRow[],
): Promise<void> {
  await bound(
    em,
    `insert into crm_health_scores (customer_id, tenant_id, score, risk, signals, computed_at)
     select r.customer_id, ?::uuid, r.score, r.risk, r.signals, ?::timestamptz
       from jsonb_to_recordset(?::jsonb) as r(customer_id uuid, score int, risk text, signals jsonb)
     on conflict (customer_id) do update set score = excluded.score, risk = excluded.risk, signals = excluded.signals, computed_at = excluded.computed_at`,
    [
      tenantId,
      computedAt,
      JSON.stringify(
        rows.map((r) => ({ customer_id: r.customerId, score: r.score, risk: r.risk, signals: r.signals })),
      ),
    ],
  );
}
