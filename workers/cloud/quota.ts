import { applyUsage } from '../../domain/cloud/applyUsage';
import { cloudQuotaQueue } from '../../queues/cloud';
import { defineProcessor } from '../define';

/** Applies usage reported by other modules to the organisation's quota (once per event id). */
export const cloudQuotaProcessor = defineProcessor(cloudQuotaQueue, {
  perform: (payload, { services }) => applyUsage(services, payload),
});
