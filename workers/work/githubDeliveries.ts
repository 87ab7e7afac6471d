import { markGithubDeliveryFailed, processGithubDelivery } from '../../domain/work/processGithubDelivery';
import { githubDeliveriesQueue } from '../../queues/work';
import { defineProcessor } from '../define';

/** Applies a stored GitHub delivery to the linked work items (idempotent: the delivery row records its outcome). */
export const githubDeliveriesProcessor = defineProcessor(githubDeliveriesQueue, {
  async perform({ tenantId, id }, { services }) {
    return processGithubDelivery(services, tenantId, id);
  },
  async onFailed({ tenantId, id }, error, { services, job }) {
    await markGithubDeliveryFailed(services, tenantId, id, error.message, job.attemptsMade + 1);
    services.logger.error(
      { tenantId, deliveryId: id, err: error.message },
      'GitHub delivery could not be applied; it is marked failed and can be retried from the queue dashboard',
    );
  },
});
