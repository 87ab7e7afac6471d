import { pruneDeliveries } from '../../domain/notifications/pruneDeliveries';
import { deliveriesPruneQueue } from '../../queues/notifications';
import { defineProcessor } from '../define';

/** Deletes delivery records past DELIVERY_RETENTION_DAYS (domain/notifications/pruneDeliveries.ts). */
export const deliveriesPruneProcessor = defineProcessor(deliveriesPruneQueue, {
  perform: (_payload, { services }) => pruneDeliveries(services),
});
