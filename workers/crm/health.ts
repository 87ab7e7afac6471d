import { tenantContext } from '../../domain/context';
import { recomputeHealth } from '../../domain/core/crm/healthScore';
import { scheduleNightlyHealth } from '../../domain/core/crm/scheduleNightlyHealth';
import { crmHealthNightlyQueue, crmHealthQueue } from '../../queues/crm';
import { defineProcessor } from '../define';

/** Recomputes and stores the health scores of a batch of customers. */
export const crmHealthProcessor = defineProcessor(crmHealthQueue, {
  async perform({ tenantId, customerIds }, { services }) {
    const scores = await recomputeHealth(tenantContext(services, tenantId), customerIds);
    return { scored: scores.length };
  },
});

/** The nightly pass over every customer (enqueued by the clock); its batches' job ids name the slot. */
export const crmHealthNightlyProcessor = defineProcessor(crmHealthNightlyQueue, {
  perform: async ({ slot }, { services }) => ({ jobs: await scheduleNightlyHealth(services, slot) }),
});
