import { failImport, runImport } from '../../domain/core/crm/imports/runImport';
import { crmImportQueue } from '../../queues/crm';
import { defineProcessor } from '../define';

/** Bulk imports of the integration hub, written with multi-row upserts (customer records were checked at the call). */
export const crmImportProcessor = defineProcessor(crmImportQueue, {
  async perform(payload, { services }) {
    const outcome = await runImport(services, payload);
    return { created: outcome.created, updated: outcome.updated, failed: outcome.errors.length };
  },
  onFailed: (payload, error, { services }) => failImport(services, payload, error),
});
