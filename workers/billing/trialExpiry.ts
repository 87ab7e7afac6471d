import { endExpiredTrials } from '../../domain/billing/endExpiredTrials';
import { trialExpiryQueue } from '../../queues/billing';
import { defineProcessor } from '../define';

/** Ends the trials past their end (status back to active, entitlements invalidated). */
export const trialExpiryProcessor = defineProcessor(trialExpiryQueue, {
  async perform(_payload, { services }) {
    const ended = await endExpiredTrials(services);
    return { ended: ended.length };
  },
});
