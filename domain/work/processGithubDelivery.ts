import type { GithubDeliveryOutcome } from '../../entities/work/github';
import type { WorkItemStatus } from '../../entities/work/workItem';
import type { Services } from '../services';

/** What a delivery asks of the linked work items, or null when it concerns none of them. */
export interface GithubEffect {
  repository: string;
  number: number;
  status: WorkItemStatus;
  /** The issue's or pull request's updated_at: an older event never overwrites a newer one. */
  updatedAt: Date;
  /** updated_at as GitHub wrote it, to find the other deliveries of the same instant (ties, see processGithubDelivery). */
  updatedAtText: string;
}

const record = (value: unknown): Record<string, unknown> | null => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null);

/**
 * issues and pull_request with action closed: the linked item becomes done (issue) or resolved (pull
 * request); reopened: in_progress. Every other event or action is recorded and ignored.
 */
export function githubEffect(event: string, payload: Record<string, unknown>): GithubEffect | null {
  if (event !== 'issues' && event !== 'pull_request') return null;
  const action = payload.action;
  if (action !== 'closed' && action !== 'reopened') return null;
  const subject = record(event === 'issues' ? payload.issue : payload.pull_request);
  const repository = record(payload.repository)?.full_name;
  const number = subject?.number;
  const updatedAtText = String(subject?.updated_at);
  const updatedAt = new Date(updatedAtText);
  if (typeof repository !== 'string' || typeof number !== 'number' || !Number.isInteger(number) || number <= 0 || Number.isNaN(updatedAt.getTime())) return null;
  const status: WorkItemStatus = action === 'reopened' ? 'in_progress' : event === 'issues' ? 'done' : 'resolved';
  return { repository: repository.toLowerCase(), number, status, updatedAt, updatedAtText };
}

export interface ProcessedDelivery {
  outcome: GithubDeliveryOutcome;
  itemsChanged: number;
}

/**
 * Applies a stored GitHub delivery to the organisation's linked work items, in one statement with the
 * delivery's outcome. Idempotent: a processed delivery is not applied again, and an item only moves for an
 * event whose updated_at is later than the last one applied to it (`stale` otherwise), so replays and
 * reordered deliveries end in the state of the latest event.
 *
 * Ties: GitHub's updated_at has one-second resolution, so a close and a reopen within the same second carry
 * the same instant. On an equal updated_at the delivery received later wins: the item moves unless a delivery
 * of the same issue/pull request with the same updated_at (same text), received after this one (receive order
 * = the stored row's created_at, then its id), was already applied. The order is the order of reception,
 * whatever the order of processing; a delivery never wins a tie against itself, so running it again changes
 * nothing.
 */
export async function processGithubDelivery(services: Services, tenantId: string, id: string): Promise<ProcessedDelivery> {
  const em = services.orm.em.fork();
  const [delivery] = await em.execute<{ event: string; payload: Record<string, unknown>; outcome: GithubDeliveryOutcome | null; items_changed: number; processed_at: Date | null }[]>(
    `select event, payload, outcome, items_changed, processed_at from work_github_deliveries where id = ? and tenant_id = ?`,
    [id, tenantId],
  );
  if (!delivery) return { outcome: 'ignored', itemsChanged: 0 };
  if (delivery.processed_at && delivery.outcome) return { outcome: delivery.outcome, itemsChanged: delivery.items_changed };
  const effect = githubEffect(delivery.event, delivery.payload);
  // One statement (atomic without a transaction block, one round trip): move the linked items whose last
  // applied event is older (or of the same instant, when no delivery of that instant received later was
  // applied), and record the delivery's outcome. A delivery already processed by a concurrent run changes
  // nothing: items only move for a later updated_at or a later-received tie, and the outcome is written once.
  const link = effect ? [tenantId, effect.repository, effect.number] : [tenantId, '', 0];
  const at = effect?.updatedAt ?? new Date(0);
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
      effect?.status ?? 'todo', at, !!effect, ...link, at, at,
      tenantId, id, tenantId, effect?.repository ?? '', effect?.number ?? 0, effect?.updatedAtText ?? '',
      !!effect, ...link, id, tenantId,
    ],
  );
  return row ? { outcome: row.outcome, itemsChanged: row.items_changed } : { outcome: delivery.outcome ?? 'ignored', itemsChanged: delivery.items_changed };
}

/** Records a delivery whose processing exhausted its attempts (visible to platform administrators). */
export async function markGithubDeliveryFailed(services: Services, tenantId: string, id: string, error: string, attempts: number): Promise<void> {
  await services.orm.em.fork().execute(`update work_github_deliveries set outcome = 'failed', attempts = ?, error = ? where id = ? and tenant_id = ? and processed_at is null`, [attempts, error.slice(0, 1000), id, tenantId]);
}
