import { HubDelivery, type HubDeliveryStatus } from '../../entities/notifications/hubDelivery';
import { ChatMessage } from '../../entities/work/chat';
import { WorkGithubDelivery, type GithubDeliveryOutcome } from '../../entities/work/github';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** Platform-wide lists of inbound and outbound deliveries, newest first, for platform administrators. */

const crossTenant = { filters: { tenant: false } } as const;
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

export interface GithubDeliveriesQuery extends PageProps {
  tenantId?: string;
  /** `pending`: stored, not processed yet (failed ones excepted). */
  status?: 'pending' | GithubDeliveryOutcome;
}

/** Deliveries without their payloads (GET /admin/deliveries/github/{id} has it). */
export type GithubDeliverySummary = Omit<WorkGithubDelivery, 'payload'>;

export async function listGithubDeliveries(em: Em, q: GithubDeliveriesQuery): Promise<Page<GithubDeliverySummary>> {
  const status = q.status === undefined ? {} : q.status === 'pending' ? { outcome: null } : { outcome: q.status };
  const rows = await em.find(WorkGithubDelivery, { ...cursorWhere(q.cursor, 'desc'), ...optional('tenantId', q.tenantId), ...status }, { ...crossTenant, orderBy: { id: 'desc' }, limit: q.limit + 1, exclude: ['payload'] });
  return toPage(rows, q.limit);
}

export async function findGithubDelivery(em: Em, id: string): Promise<WorkGithubDelivery> {
  const row = await em.findOne(WorkGithubDelivery, { id }, crossTenant);
  if (!row) throw notFound('Delivery');
  return row;
}

export interface HubDeliveriesQuery extends PageProps {
  tenantId?: string;
  module?: string;
  status?: HubDeliveryStatus;
}

export async function listHubDeliveries(em: Em, q: HubDeliveriesQuery): Promise<Page<HubDelivery>> {
  const rows = await em.find(HubDelivery, { ...cursorWhere(q.cursor, 'desc'), ...optional('tenantId', q.tenantId), ...optional('module', q.module), ...optional('status', q.status) }, { orderBy: { id: 'desc' }, limit: q.limit + 1 });
  return toPage(rows, q.limit);
}

/** Messages chat integrations delivered (posted with a token; the token may have been deleted since). */
export async function listChatDeliveries(em: Em, q: PageProps & { tenantId?: string }): Promise<Page<ChatMessage>> {
  const rows = await em.find(ChatMessage, { ...cursorWhere(q.cursor, 'desc'), ...optional('tenantId', q.tenantId), authorId: null }, { ...crossTenant, orderBy: { id: 'desc' }, limit: q.limit + 1 });
  return toPage(rows, q.limit);
}

export interface DeliveryCount {
  direction: 'inbound' | 'outbound';
  source: string;
  status: string;
  count: number;
}

/** Deliveries of the last `hours` by direction, source and status (stripe events included). */
export async function deliverySummary(em: Em, hours: number): Promise<DeliveryCount[]> {
  const rows = await em.execute<{ direction: DeliveryCount['direction']; source: string; status: string; count: number }[]>(
    `select 'inbound' as direction, 'github' as source, coalesce(outcome, 'pending') as status, count(*)::int as count from work_github_deliveries where created_at > now() - make_interval(hours => ?) group by 2, 3
     union all select 'inbound', 'stripe', coalesce(outcome, case when processed_at is null then 'pending' else 'processed' end), count(*)::int from stripe_events where received_at > now() - make_interval(hours => ?) group by 2, 3
     union all select 'inbound', 'chat', 'stored', count(*)::int from chat_messages where author_id is null and created_at > now() - make_interval(hours => ?) having count(*) > 0
     union all select 'outbound', 'hub.' || module, status, count(*)::int from hub_deliveries where last_attempt_at > now() - make_interval(hours => ?) group by 2, 3
     order by 1, 2, 3`,
    [hours, hours, hours, hours],
  );
  return rows.map((r) => ({ ...r, count: Number(r.count) }));
}
