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
  const updatedAt = new Date(String(subject?.updated_at));
  if (typeof repository !== 'string' || typeof number !== 'number' || !Number.isInteger(number) || number <= 0 || Number.isNaN(updatedAt.getTime())) return null;
  const status: WorkItemStatus = action === 'reopened' ? 'in_progress' : event === 'issues' ? 'done' : 'resolved';
  return { repository: repository.toLowerCase(), number, status, updatedAt };
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
  // applied event is older, and record the delivery's outcome. A delivery already processed by a concurrent
  // run changes nothing: items only move for a later updated_at, and the outcome is written once.
  const link = effect ? [tenantId, effect.repository, effect.number] : [tenantId, '', 0];
  const [row] = await em.execute<{ outcome: GithubDeliveryOutcome; items_changed: number }[]>(
    `with changed as (
       update work_items set status = ?, link_updated_at = ?, updated_at = now()
       where ? and tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ? and (link_updated_at is null or link_updated_at < ?) returning id
     ), linked as (
       select count(*)::int as n from work_items where ? and tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ?
     )
     update work_github_deliveries set processed_at = now(), attempts = attempts + 1, error = null,
       items_changed = (select count(*)::int from changed),
       outcome = case when (select count(*) from changed) > 0 then 'applied' when (select n from linked) > 0 then 'stale' else 'ignored' end
     where id = ? and tenant_id = ? and processed_at is null
     returning outcome, items_changed`,
    [effect?.status ?? 'todo', effect?.updatedAt ?? new Date(0), !!effect, ...link, effect?.updatedAt ?? new Date(0), !!effect, ...link, id, tenantId],
  );
  return row ? { outcome: row.outcome, itemsChanged: row.items_changed } : { outcome: delivery.outcome ?? 'ignored', itemsChanged: delivery.items_changed };
}

/** Records a delivery whose processing exhausted its attempts (visible to platform administrators). */
export async function markGithubDeliveryFailed(services: Services, tenantId: string, id: string, error: string, attempts: number): Promise<void> {
  await services.orm.em.fork().execute(`update work_github_deliveries set outcome = 'failed', attempts = ?, error = ? where id = ? and tenant_id = ? and processed_at is null`, [attempts, error.slice(0, 1000), id, tenantId]);
}
