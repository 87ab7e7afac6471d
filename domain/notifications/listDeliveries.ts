import { HubDelivery, type HubDeliveryStatus } from '../../entities/notifications/hubDelivery';
import { ChatMessage } from '../../entities/work/chat';
import { WorkGithubDelivery, type GithubDeliveryOutcome } from '../../entities/work/github';
import { lean, preparedRead, withoutTenant, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';

/**
 * Platform-wide lists of inbound and outbound deliveries, newest first, for platform administrators: lean
 * statements (docs/database-path.md). GitHub deliveries and chat messages are tenant-scoped rows, read across
 * tenants (`crossTenant`) because the administrator's view is every organisation's; tenantId is a filter.
 */

export interface GithubDeliveriesQuery extends PageProps {
  tenantId?: string;
  /** `pending`: stored, not processed yet (failed ones excepted). */
  status?: 'pending' | GithubDeliveryOutcome;
}

const githubSummaryColumns = ['id', 'tenantId', 'createdAt', 'deliveryId', 'event', 'action', 'processedAt', 'outcome', 'itemsChanged', 'attempts', 'error'] as const;

/** Deliveries without their payloads (GET /admin/deliveries/github/{id} has it). */
export type GithubDeliverySummary = Pick<Lean<WorkGithubDelivery>, (typeof githubSummaryColumns)[number]>;

// $2: an outcome; $3: only the pending ones (no outcome yet).
const githubPage = lean(WorkGithubDelivery, {
  crossTenant: true,
  columns: githubSummaryColumns,
  where: '($1::uuid is null or tenant_id = $1) and ($2::text is null or outcome = $2) and (not $3::boolean or outcome is null) and ($4::uuid is null or id < $4)',
  orderBy: 'id desc',
  limitParam: '$5',
});
const githubById = lean(WorkGithubDelivery, { crossTenant: true, where: 'id = $1' });

export async function listGithubDeliveries(services: Services, q: GithubDeliveriesQuery): Promise<Page<GithubDeliverySummary>> {
  const outcome = q.status === 'pending' ? null : (q.status ?? null);
  return toPage(await githubPage.all(withoutTenant(services), q.tenantId ?? null, outcome, q.status === 'pending', q.cursor ?? null, q.limit + 1), q.limit);
}

export async function findGithubDelivery(services: Services, id: string): Promise<Lean<WorkGithubDelivery>> {
  return githubById.byId('Delivery', withoutTenant(services), id);
}

export interface HubDeliveriesQuery extends PageProps {
  tenantId?: string;
  module?: string;
  status?: HubDeliveryStatus;
}

const hubPage = lean(HubDelivery, {
  where: '($1::uuid is null or tenant_id = $1) and ($2::text is null or module = $2) and ($3::text is null or status = $3) and ($4::uuid is null or id < $4)',
  orderBy: 'id desc',
  limitParam: '$5',
});

export async function listHubDeliveries(services: Services, q: HubDeliveriesQuery): Promise<Page<Lean<HubDelivery>>> {
  return toPage(await hubPage.all(withoutTenant(services), q.tenantId ?? null, q.module ?? null, q.status ?? null, q.cursor ?? null, q.limit + 1), q.limit);
}

const chatPage = lean(ChatMessage, {
  crossTenant: true,
  where: 'author_id is null and ($1::uuid is null or tenant_id = $1) and ($2::uuid is null or id < $2)',
  orderBy: 'id desc',
  limitParam: '$3',
});

/** Messages chat integrations delivered (posted with a token; the token may have been deleted since). */
export async function listChatDeliveries(services: Services, q: PageProps & { tenantId?: string }): Promise<Page<Lean<ChatMessage>>> {
  return toPage(await chatPage.all(withoutTenant(services), q.tenantId ?? null, q.cursor ?? null, q.limit + 1), q.limit);
}

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

/** Deliveries of the last `hours` by direction, source and status (stripe events included). */
export async function deliverySummary(services: Services, hours: number): Promise<DeliveryCount[]> {
  return deliveryCounts(services.orm, [hours]);
}
