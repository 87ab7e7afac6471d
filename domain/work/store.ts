import { LockMode } from '@mikro-orm/core';
import { newId } from '../../entities/base';
import { ChatChannel, ChatIntegrationToken, ChatMessage } from '../../entities/work/chat';
import {
  GITHUB_DELIVERY_COLUMNS,
  WorkGithubDelivery,
  WorkGithubSettings,
  type GithubDeliveryOutcome,
} from '../../entities/work/github';
import { WorkItem, type WorkItemStatus } from '../../entities/work/workItem';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { lean, type Lean, type LeanScope } from '../../lib/lean';
import { cursorWhere, type PageProps } from '../../lib/pagination';
import type { GithubEffect } from './githubEffect';

/**
 * The statements of work items, chat and the GitHub webhook: what the use cases read and write, named by it.
 * Lookups by id answer 404 for an id that is not the organisation's (the tenant filter of the em applies).
 */

// --- Work items

export async function findWorkItem(em: Em, id: string): Promise<WorkItem> {
  const item = await em.findOne(WorkItem, { id });
  if (!item) throw notFound('Work item');
  return item;
}

// A lean statement (docs/database-path.md): every combination of filters is one prepared statement.
const workItemsPage = lean(WorkItem, {
  where:
    '($1::text is null or status = $1) and ($2::text is null or link_repository = $2) and ($3::uuid is null or id < $3)',
  orderBy: 'id desc',
  limitParam: '$4',
});

/** `limit` rows (one more than a page, to know whether more follow), newest first; `repository` lower-cased. */
export const workItemsNewestFirst = (
  scope: LeanScope,
  filter: { status: WorkItemStatus | null; repository: string | null; before: string | null },
  limit: number,
): Promise<Lean<WorkItem>[]> => workItemsPage.all(scope, filter.status, filter.repository, filter.before, limit);

// --- Chat

export async function findChannel(em: Em, id: string): Promise<ChatChannel> {
  const channel = await em.findOne(ChatChannel, { id });
  if (!channel) throw notFound('Channel');
  return channel;
}

// A lean statement (docs/database-path.md).
const channelsPage = lean(ChatChannel, { where: '($1::uuid is null or id > $1)', orderBy: 'id asc', limitParam: '$2' });

export const channelsOldestFirst = (
  scope: LeanScope,
  after: string | null,
  limit: number,
): Promise<Lean<ChatChannel>[]> => channelsPage.all(scope, after, limit);

/** Tokens first: a post holding its token row is waited for, and its message is then deleted with the others. */
export async function deleteChannelContents(em: Em, channelId: string): Promise<void> {
  await em.nativeDelete(ChatIntegrationToken, { channelId });
  await em.nativeDelete(ChatMessage, { channelId });
}

export const messagesNewestFirst = (em: Em, channelId: string, page: PageProps): Promise<ChatMessage[]> =>
  em.find(
    ChatMessage,
    { channelId, ...cursorWhere(page.cursor, 'desc') },
    { orderBy: { id: 'desc' }, limit: page.limit + 1 },
  );

export const tokensOldestFirst = (em: Em, channelId: string, page: PageProps): Promise<ChatIntegrationToken[]> =>
  em.find(
    ChatIntegrationToken,
    { channelId, ...cursorWhere(page.cursor, 'asc') },
    { orderBy: { id: 'asc' }, limit: page.limit + 1 },
  );

export async function findIntegrationToken(em: Em, id: string): Promise<ChatIntegrationToken> {
  const token = await em.findOne(ChatIntegrationToken, { id });
  if (!token) throw notFound('Integration token');
  return token;
}

/** The token row first (it waits for a post holding it), then its messages lose their token id. */
export async function deleteTokenKeepingMessages(em: Em, id: string): Promise<void> {
  await em.nativeDelete(ChatIntegrationToken, { id });
  await em.nativeUpdate(ChatMessage, { tokenId: id }, { tokenId: null });
}

/** The token of a hash, of any organisation, locked until the transaction ends; null when unknown or deleted. */
export const lockTokenByHash = (em: Em, tokenHash: string): Promise<ChatIntegrationToken | null> =>
  em.findOne(ChatIntegrationToken, { tokenHash }, { filters: { tenant: false }, lockMode: LockMode.PESSIMISTIC_WRITE });

// --- GitHub settings and deliveries

/** Two first settings at once would both insert the organisation's one row: the second waits here. */
export const lockGithubSettings = (em: Em, tenantId: string) =>
  em.execute('select pg_advisory_xact_lock(hashtext(?))', [`work_github:${tenantId}`]);

export const findGithubSettings = (em: Em, tenantId: string): Promise<WorkGithubSettings | null> =>
  em.findOne(WorkGithubSettings, { tenantId });

/** The sealed secret of any organisation (the webhook knows only `?org=`). */
export const sealedGithubSecret = async (em: Em, tenantId: string): Promise<string | null> =>
  (await em.findOne(WorkGithubSettings, { tenantId }, { filters: { tenant: false }, fields: ['secretSealed'] }))
    ?.secretSealed ?? null;

/** Stores a delivery once per X-GitHub-Delivery id: the new row's id, or null when that id is stored already. */
export async function insertGithubDelivery(
  em: Em,
  d: { tenantId: string; deliveryId: string; event: string; action: string | null; payload: Record<string, unknown> },
): Promise<string | null> {
  const rows = await em.execute<{ id: string }[]>(
    `insert into work_github_deliveries (id, tenant_id, created_at, delivery_id, event, action, payload) values (?, ?, now(), ?, ?, ?, ?)
     on conflict (tenant_id, delivery_id) do nothing returning id`,
    [newId(), d.tenantId, d.deliveryId, d.event, d.action, JSON.stringify(d.payload)],
  );
  return rows[0]?.id ?? null;
}

export const findGithubDeliveryByDeliveryId = (
  em: Em,
  tenantId: string,
  deliveryId: string,
): Promise<Pick<WorkGithubDelivery, 'id' | 'processedAt'> | null> =>
  em.findOne(WorkGithubDelivery, { tenantId, deliveryId }, { filters: { tenant: false }, fields: ['processedAt'] });

export interface StoredDelivery {
  event: string;
  payload: Record<string, unknown>;
  outcome: GithubDeliveryOutcome | null;
  items_changed: number;
  processed_at: Date | null;
}

export async function readGithubDelivery(em: Em, tenantId: string, id: string): Promise<StoredDelivery | undefined> {
  const [delivery] = await em.execute<StoredDelivery[]>(
    `select event, payload, outcome, items_changed, processed_at from work_github_deliveries where id = ? and tenant_id = ?`,
    [id, tenantId],
  );
  return delivery;
}

/**
 * One statement (atomic without a transaction block, one round trip): moves the linked items whose last applied
 * event is older (or of the same instant, when no delivery of that instant received later was applied), and
 * records the delivery's outcome. A delivery already processed by a concurrent run changes nothing: items only
 * move for a later updated_at or a later-received tie, and the outcome is written once (undefined then).
 */
export async function applyGithubDelivery(
  em: Em,
  tenantId: string,
  id: string,
  move: GithubEffect | null,
): Promise<{ outcome: GithubDeliveryOutcome; items_changed: number } | undefined> {
  const link = move ? [tenantId, move.repository, move.number] : [tenantId, '', 0];
  const at = move?.updatedAt ?? new Date(0);
  const [row] = await em.execute<{ outcome: GithubDeliveryOutcome; items_changed: number }[]>(
    `with changed as (
       update work_items set status = ?, link_updated_at = ?, updated_at = now()
       where ? and tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ?
         and (link_updated_at is null or link_updated_at < ? or (link_updated_at = ? and not exists (
           select 1 from work_github_deliveries d
           where d.tenant_id = ? and d.outcome = 'applied' and d.event in ('issues', 'pull_request') and d.action in ('closed', 'reopened')
             and (d.created_at, d.id) > (select s.created_at, s.id from work_github_deliveries s where s.id = ? and s.tenant_id = ?)
             and lower(d.payload -> 'repository' ->> 'full_name') = ?
             and d.payload -> (case when d.event = 'issues' then 'issue' else 'pull_request' end) -> 'number' = to_jsonb(?::int)
             and d.payload -> (case when d.event = 'issues' then 'issue' else 'pull_request' end) ->> 'updated_at' = ?
         )))
       returning id
     ), linked as (
       select count(*)::int as n from work_items where ? and tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ?
     )
     update work_github_deliveries set processed_at = now(), attempts = attempts + 1, error = null,
       items_changed = (select count(*)::int from changed),
       outcome = case when (select count(*) from changed) > 0 then 'applied' when (select n from linked) > 0 then 'stale' else 'ignored' end
     where id = ? and tenant_id = ? and processed_at is null
     returning outcome, items_changed`,
    [
      move?.status ?? 'todo',
      at,
      !!move,
      ...link,
      at,
      at,
      tenantId,
      id,
      tenantId,
      move?.repository ?? '',
      move?.number ?? 0,
      move?.updatedAtText ?? '',
      !!move,
      ...link,
      id,
      tenantId,
    ],
  );
  return row;
}

/** Records a failure on a delivery not processed yet (its error text cut to the column). */
export async function markDeliveryFailed(
  em: Em,
  tenantId: string,
  id: string,
  error: string,
  attempts: number,
): Promise<void> {
  await em.execute(
    `update work_github_deliveries set outcome = 'failed', attempts = ?, error = ? where id = ? and tenant_id = ? and processed_at is null`,
    [attempts, error.slice(0, GITHUB_DELIVERY_COLUMNS.error), id, tenantId],
  );
}
