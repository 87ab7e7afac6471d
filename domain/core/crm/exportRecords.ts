import type { CustomValues } from '../../../entities/core/customer';
import { rawDate } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { visibleCustomValues } from './customValues';
import { fieldDefinitions } from './fieldDefinitions';
import { exportBatch, type ExportResource } from './store/exports';

export { exportResources, type ExportResource } from './store/exports';

const BATCH = 1000;

/** Columns of each resource, as exported (CSV header order; JSON lines use the same names). */
export const exportColumns: Record<ExportResource, string[]> = {
  customers: [
    'id',
    'externalId',
    'kind',
    'name',
    'roles',
    'tags',
    'primaryEmail',
    'emails',
    'phones',
    'addresses',
    'custom',
    'ownerId',
    'lastContactAt',
    'createdAt',
    'updatedAt',
  ],
  relations: ['id', 'fromId', 'toId', 'type', 'createdAt'],
  deals: [
    'id',
    'externalId',
    'title',
    'customerId',
    'pipelineId',
    'stageId',
    'status',
    'amount',
    'currency',
    'ownerId',
    'expectedCloseDate',
    'lostReason',
    'closedAt',
    'createdAt',
    'updatedAt',
  ],
};

/** Timestamp columns, as Dates (whatever the driver returned): the caller writes them as ISO 8601. */
export const exportTimestamps = ['lastContactAt', 'closedAt', 'createdAt', 'updatedAt'] as const;

/**
 * The organisation's records of one resource, in id order, read in keyset batches of 1,000: each statement is
 * short (request-path bound) and memory stays flat however large the book, while the caller streams them out.
 * Custom values are those of the fields defined when the export starts, as every answer shows them (a deleted
 * field's values are gone before its purge has run).
 */
export async function* exportRecords(
  ctx: TenantContext,
  resource: ExportResource,
): AsyncGenerator<Record<string, unknown>> {
  const defs = resource === 'customers' ? await fieldDefinitions(ctx) : null;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await exportBatch(ctx.em, ctx.tenantId, resource, after, BATCH);
    for (const row of rows) {
      if (row.amount !== undefined) row.amount = Number(row.amount);
      if (defs) row.custom = visibleCustomValues(defs, (row.custom ?? {}) as CustomValues);
      for (const key of exportTimestamps) if (row[key] != null) row[key] = rawDate(row[key]);
      yield row;
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1].id as string;
  }
}
