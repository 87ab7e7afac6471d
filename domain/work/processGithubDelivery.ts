import type { GithubDeliveryOutcome } from '../../entities/work/github';
import type { Services } from '../services';
import { githubEffect } from './githubEffect';
import { applyGithubDelivery, markDeliveryFailed, readGithubDelivery } from './store';

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
export async function processGithubDelivery(
  services: Services,
  tenantId: string,
  id: string,
): Promise<ProcessedDelivery> {
  const em = services.orm.em.fork();
  const delivery = await readGithubDelivery(em, tenantId, id);
  if (!delivery) return { outcome: 'ignored', itemsChanged: 0 };
  if (delivery.processed_at && delivery.outcome)
    return { outcome: delivery.outcome, itemsChanged: delivery.items_changed };
  const row = await applyGithubDelivery(em, tenantId, id, githubEffect(delivery.event, delivery.payload));
  return row
    ? { outcome: row.outcome, itemsChanged: row.items_changed }
    : { outcome: delivery.outcome ?? 'ignored', itemsChanged: delivery.items_changed };
}

/** Records a delivery whose processing exhausted its attempts (visible to platform administrators). */
export async function markGithubDeliveryFailed(
  services: Services,
  tenantId: string,
  id: string,
  error: string,
  attempts: number,
): Promise<void> {
  await markDeliveryFailed(services.orm.em.fork(), tenantId, id, error, attempts);
}
