import { HubDelivery, type HubDeliveryStatus } from '../../entities/notifications/hubDelivery';
import { ChatMessage } from '../../entities/work/chat';
import { WorkGithubDelivery, type GithubDeliveryOutcome } from '../../entities/work/github';
import type { Em } from '../../lib/db';
import { lean, preparedRead, withoutTenant, type Lean } from '../../lib/lean';
import type { Services } from '../services';

/**
 * The statements of delivery records: the hub's outbound attempts (hub_deliveries), and the platform-wide reads
 * of inbound and outbound deliveries for platform administrators (lean statements, docs/database-path.md).
 * GitHub deliveries and chat messages are tenant-scoped rows, read across tenants (`crossTenant`) because the
 * administrator's view is every organisation's; tenantId is a filter. Delivery records are the platform's: the
 * prune crosses tenants by design.
 */

// --- Hub attempts

export interface HubAttemptRow {
  id: string;
  tenantId: string;
  module: string;
  event: string;
  status: HubDeliveryStatus;
  attempts: number;
  httpStatus: number | null;
  error: string | null;
  deliveredAt: Date | null;
}

/** One row per notification, updated at each attempt; a delivered row is final (nothing changes it). */
export async function upsertHubAttempt(em: Em, row: HubAttemptRow): Promise<void> {
  await em.execute(
    `insert into hub_deliveries (id, tenant_id, module, event, status, attempts, last_status, last_error, first_attempt_at, last_attempt_at, delivered_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, now(), now(), ?)
     on conflict (id) do update set status = excluded.status, attempts = greatest(hub_deliveries.attempts, excluded.attempts), last_status = excluded.last_status,
       last_error = excluded.last_error, last_attempt_at = excluded.last_attempt_at, delivered_at = coalesce(hub_deliveries.delivered_at, excluded.delivered_at)
     where hub_deliveries.status <> 'delivered'`,
    [row.id, row.tenantId, row.module, row.event, row.status, row.attempts, row.httpStatus, row.error, row.deliveredAt],
  );
}

/** The recorded status of a notification, or null when none was recorded. */
export async function hubDeliveryStatus(em: Em, id: string): Promise<string | null> {
  const rows = await em.execute<{ status: string }[]>(`select status from hub_deliveries where id = ?`, [id]);
  return rows[0]?.status ?? null;
}

/** Deletes up to `batch` rows of `table` with ids below `before` (and `condition`); how many it deleted. */
export async function deleteOlderBatch(
  em: Em,
  table: 'hub_deliveries' | 'work_github_deliveries',
  condition: string,
  before: string,
  batch: number,
): Promise<number> {
  const [{ n }] = await em.getConnection().execute<{ n: number }[]>(
    `with gone as (delete from ${table} where id in (select id from ${table} where id < ?::uuid ${condition} order by id limit ${batch}) returning 1)
     select count(*)::int as n from gone`,
    [before],
  );
  return n;
}

// --- Administrators' lists, newest first

const githubSummaryColumns = [
  'id',
  'tenantId',
  'createdAt',
  'deliveryId',
  'event',
  'action',
  'processedAt',
  'outcome',
  'itemsChanged',
  'attempts',
  'error',
] as const;

/** Deliveries without their payloads (GET /admin/deliveries/github/{id} has it). */
export type GithubDeliverySummary = Pick<Lean<WorkGithubDelivery>, (typeof githubSummaryColumns)[number]>;

// $2: an outcome; $3: only the pending ones (no outcome yet).
const githubPage = lean(WorkGithubDelivery, {
  crossTenant: true,
  columns: githubSummaryColumns,
  where:
    '($1::uuid is null or tenant_id = $1) and ($2::text is null or outcome = $2) and (not $3::boolean or outcome is null) and ($4::uuid is null or id < $4)',
  orderBy: 'id desc',
  limitParam: '$5',
});
const githubById = lean(WorkGithubDelivery, { crossTenant: true, where: 'id = $1' });

export interface PageFilter {
  tenantId: string | null;
  before: string | null;
  limit: number;
}

export const githubDeliveriesNewestFirst = (
  services: Services,
  f: PageFilter & { outcome: GithubDeliveryOutcome | null; pendingOnly: boolean },
): Promise<GithubDeliverySummary[]> =>
  githubPage.all(withoutTenant(services), f.tenantId, f.outcome, f.pendingOnly, f.before, f.limit);

/** A GitHub delivery of any organisation with its payload, or 404. */
export const findGithubDelivery = (services: Services, id: string): Promise<Lean<WorkGithubDelivery>> =>
  githubById.byId('Delivery', withoutTenant(services), id);

const hubPage = lean(HubDelivery, {
  where:
    '($1::uuid is null or tenant_id = $1) and ($2::text is null or module = $2) and ($3::text is null or status = $3) and ($4::uuid is null or id < $4)',
  orderBy: 'id desc',
  limitParam: '$5',
});

export const hubDeliveriesNewestFirst = (
  services: Services,
  f: PageFilter & { module: string | null; status: HubDeliveryStatus | null },
): Promise<Lean<HubDelivery>[]> =>
  hubPage.all(withoutTenant(services), f.tenantId, f.module, f.status, f.before, f.limit);

const chatPage = lean(ChatMessage, {
  crossTenant: true,
  where: 'author_id is null and ($1::uuid is null or tenant_id = $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});

/** Messages posted with an integration token (no author; the token may have been deleted since). */
export const chatDeliveriesNewestFirst = (services: Services, f: PageFilter): Promise<Lean<ChatMessage>[]> =>
  chatPage.all(withoutTenant(services), f.tenantId, f.before, f.limit);

export interface DeliveryCount {
  direction: 'inbound' | 'outbound';
  source: string;
  status: string;
  count: number;
}

// Counts summed by PostgreSQL across tables (preparedRead): platform-wide, no tenant to bind.
const deliveryCounts = preparedRead<DeliveryCount>(
  `select 'inbound' as direction, 'github' as source, coalesce(outcome, 'pending') as status, count(*)::int as count from work_github_deliveries where created_at > now() - make_interval(hours => $1) group by 2, 3
   union all select 'inbound', 'stripe', coalesce(outcome, case when processed_at is null then 'pending' else 'processed' end), count(*)::int from stripe_events where received_at > now() - make_interval(hours => $1) group by 2, 3
   union all select 'inbound', 'chat', 'stored', count(*)::int from chat_messages where author_id is null and created_at > now() - make_interval(hours => $1) having count(*) > 0
   union all select 'outbound', 'hub.' || module, status, count(*)::int from hub_deliveries where last_attempt_at > now() - make_interval(hours => $1) group by 2, 3
   order by 1, 2, 3`,
);

export const deliveryCountsSince = (services: Services, hours: number): Promise<DeliveryCount[]> =>
  deliveryCounts(services.orm, [hours]);
