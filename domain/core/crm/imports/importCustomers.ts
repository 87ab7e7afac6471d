import type { TenantContext } from '../../../context';
import { checkCustomers } from './checkCustomers';
import {
  deletePayload,
  mergeCustomerIndexPending,
  payloadParts,
  setImportErrors,
  storePayload,
  uncheckedRecords,
  upsertCustomerPart,
} from '../store/imports';
import { importStatusOf } from '../store/importUploads';

/**
 * Upserts the stored rows of a customer import by (tenant, externalId), one part per statement: a new
 * externalId creates a customer, a known one has its imported fields replaced (kind, name, roles, tags,
 * emails, phones, addresses) and its custom values merged; owner, activities, relations and deals stay. A
 * record that changes nothing writes nothing (a replay costs reads, not index entries). Each part is deleted
 * and counted in crm_imports by the statement that upserts it, so a retried job resumes at the first part left.
 */
export async function importCustomers(ctx: TenantContext, importId: string): Promise<'done' | 'stopped'> {
  await checkLegacyPayload(ctx, importId);
  const parts = await payloadParts(ctx.em, importId);
  let outcome: 'done' | 'stopped' = 'done';
  // Each part commits on its own (asynchronously: see upsertCustomerPart); the import is marked completed after.
  // A spreadsheet import paused or cancelled meanwhile stops before its next part.
  for (const { part } of parts) {
    if ((await importStatusOf(ctx.em, ctx.tenantId, importId)) !== 'running') {
      outcome = 'stopped';
      break;
    }
    await upsertCustomerPart(ctx.em, ctx.tenantId, importId, part, new Date());
  }
  if (parts.length) await mergeCustomerIndexPending(ctx.em);
  return outcome;
}

/**
 * Records accepted before they were checked at the call (stored unchecked by an earlier version) are checked
 * now and stored as rows, in the transaction that removes them, with their errors in the status.
 */
async function checkLegacyPayload(ctx: TenantContext, importId: string): Promise<void> {
  const legacy = await uncheckedRecords(ctx.em, importId);
  if (!legacy) return;
  const { rows, errors } = await checkCustomers(ctx, legacy);
  await ctx.em.transactional(async (em) => {
    await deletePayload(em, importId);
    await setImportErrors(em, ctx.tenantId, importId, errors);
    await storePayload(em, importId, rows, true);
  });
}
