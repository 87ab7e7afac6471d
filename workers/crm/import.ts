import { failImport, runImport } from '../../domain/core/crm/imports/runImport';
import { crmImportQueue } from '../../queues/crm';
import { defineProcessor } from '../define';

/** Bulk imports of the integration hub (records checked one by one, written with multi-row upserts). */
export const crmImportProcessor = defineProcessor(crmImportQueue, {
  async perform(payload, { services }) {
    const outcome = await runImport(services, payload);
    return { created: outcome.created, updated: outcome.updated, failed: outcome.errors.length };
  },
  onFailed: (payload, error, { services }) => failImport(services, payload, error),
});
