import { purgeCustomField } from '../../domain/core/crm/purgeCustomField';
import { crmFieldPurgeQueue } from '../../queues/crm';
import { defineProcessor } from '../define';

/** Purges the values of a deleted custom field. */
export const crmFieldPurgeProcessor = defineProcessor(crmFieldPurgeQueue, {
  perform: async ({ tenantId, key }, { services }) => ({ purged: await purgeCustomField(services, tenantId, key) }),
});
