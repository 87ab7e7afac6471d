import { crmHealthQueue } from '../../../queues/crm';
import type { Services } from '../../services';

/**
 * Asks the crm-health worker to recompute the scores of these customers (call it after the change that moves a
 * signal committed: an activity, a deal, an invoice paid ...). Requests for one customer are merged while one
 * waits, and one arriving while it runs makes one more run. Best effort: the nightly pass repairs a lost one.
 */
export async function requestHealthRecompute(
  services: Services,
  tenantId: string,
  customerIds: string[],
): Promise<void> {
  const ids = [...new Set(customerIds)];
  if (!ids.length) return;
  try {
    await services.queues.addBulk(
      crmHealthQueue,
      ids.map((id) => ({
        payload: { tenantId, customerIds: [id] },
        options: { delay: 300, deduplication: { id: `crm-health.${tenantId}.${id}`, keepLastIfActive: true } },
      })),
    );
  } catch (err) {
    services.logger.warn({ err: (err as Error).message, tenantId }, 'health recomputation not requested');
  }
}
