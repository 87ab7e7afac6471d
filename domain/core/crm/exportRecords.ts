import type { CustomValues } from '../../../entities/core/customer';
import { rawDate } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { fieldDefinitions, visibleCustomValues } from './customFields';

export const exportResources = ['customers', 'relations', 'deals'] as const;
export type ExportResource = (typeof exportResources)[number];

const BATCH = 1000;

/** Columns of each resource, as exported (CSV header order; JSON lines use the same names). */
export const exportColumns: Record<ExportResource, string[]> = {
  customers: ['id', 'externalId', 'kind', 'name', 'roles', 'tags', 'primaryEmail', 'emails', 'phones', 'addresses', 'custom', 'ownerId', 'lastContactAt', 'createdAt', 'updatedAt'],
  relations: ['id', 'fromId', 'toId', 'type', 'createdAt'],
  deals: ['id', 'externalId', 'title', 'customerId', 'pipelineId', 'stageId', 'status', 'amount', 'currency', 'ownerId', 'expectedCloseDate', 'lostReason', 'closedAt', 'createdAt', 'updatedAt'],
};

const SQL: Record<ExportResource, string> = {
  customers: `select id, external_id as "externalId", kind, name, roles, tags, primary_email as "primaryEmail", emails, phones, addresses, custom, owner_id as "ownerId", last_contact_at as "lastContactAt", created_at as "createdAt", updated_at as "updatedAt" from crm_customers`,
  relations: `select id, from_id as "fromId", to_id as "toId", type, created_at as "createdAt" from crm_relations`,
  deals: `select id, external_id as "externalId", title, customer_id as "customerId", pipeline_id as "pipelineId", stage_id as "stageId", status, amount, currency, owner_id as "ownerId", to_char(expected_close_date, 'YYYY-MM-DD') as "expectedCloseDate", lost_reason as "lostReason", closed_at as "closedAt", created_at as "createdAt", updated_at as "updatedAt" from crm_deals`,
};

/** Timestamp columns, as Dates (whatever the driver returned): the caller writes them as ISO 8601. */
export const exportTimestamps = ['lastContactAt', 'closedAt', 'createdAt', 'updatedAt'] as const;

/**
 * The organisation's records of one resource, in id order, read in keyset batches of 1,000: each statement is
 * short (request-path bound) and memory stays flat however large the book, while the caller streams them out.
 * Custom values are those of the fields defined when the export starts, as every answer shows them (a deleted
 * field's values are gone before its purge has run).
 */
export async function* exportRecords(ctx: TenantContext, resource: ExportResource): AsyncGenerator<Record<string, unknown>> {
  const defs = resource === 'customers' ? await fieldDefinitions(ctx) : null;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await ctx.em.execute<Record<string, unknown>[]>(`${SQL[resource]} where tenant_id = ? and id > ? order by id limit ?`, [ctx.tenantId, after, BATCH]);
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
