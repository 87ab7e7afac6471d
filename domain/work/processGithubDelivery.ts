import { WorkGithubDelivery, type GithubDeliveryOutcome } from '../../entities/work/github';
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
 * Applies a stored GitHub delivery to the organisation's linked work items, in one transaction with the
 * delivery's outcome. Idempotent: a processed delivery is not applied again, and an item only moves for an
 * event whose updated_at is later than the last one applied to it (`stale` otherwise), so replays and
 * reordered deliveries end in the state of the latest event.
 */
export async function processGithubDelivery(services: Services, tenantId: string, id: string): Promise<ProcessedDelivery> {
  const em = services.orm.em.fork();
  em.setFilterParams('tenant', { tenantId });
  const delivery = await em.findOne(WorkGithubDelivery, { id });
  if (!delivery) return { outcome: 'ignored', itemsChanged: 0 };
  if (delivery.processedAt && delivery.outcome) return { outcome: delivery.outcome, itemsChanged: delivery.itemsChanged };
  const effect = githubEffect(delivery.event, delivery.payload);
  return em.transactional(async (tx) => {
    let outcome: GithubDeliveryOutcome = 'ignored';
    let itemsChanged = 0;
    if (effect) {
      const link = [tenantId, effect.repository, effect.number];
      const changed = await tx.execute<{ id: string }[]>(
        `update work_items set status = ?, link_updated_at = ?, updated_at = now()
         where tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ? and (link_updated_at is null or link_updated_at < ?) returning id`,
        [effect.status, effect.updatedAt, ...link, effect.updatedAt],
      );
      itemsChanged = changed.length;
      if (itemsChanged) outcome = 'applied';
      else {
        const linked = await tx.execute<{ n: number }[]>(`select count(*)::int as n from work_items where tenant_id = ? and link_provider = 'github' and link_repository = ? and link_number = ?`, link);
        outcome = linked[0].n ? 'stale' : 'ignored';
      }
    }
    await tx.execute(`update work_github_deliveries set processed_at = now(), outcome = ?, items_changed = ?, attempts = attempts + 1, error = null where id = ? and tenant_id = ?`, [outcome, itemsChanged, id, tenantId]);
    return { outcome, itemsChanged };
  });
}

/** Records a delivery whose processing exhausted its attempts (visible to platform administrators). */
export async function markGithubDeliveryFailed(services: Services, tenantId: string, id: string, error: string, attempts: number): Promise<void> {
  await services.orm.em.fork().execute(`update work_github_deliveries set outcome = 'failed', attempts = ?, error = ? where id = ? and tenant_id = ? and processed_at is null`, [attempts, error.slice(0, 1000), id, tenantId]);
}
