import type { Em } from '../../../../lib/db';

export const exportResources = ['customers', 'relations', 'deals'] as const;
export type ExportResource = (typeof exportResources)[number];

const SQL: Record<ExportResource, string> = {
  customers: `select id, external_id as "externalId", kind, name, roles, tags, primary_email as "primaryEmail", emails, phones, addresses, custom, owner_id as "ownerId", last_contact_at as "lastContactAt", created_at as "createdAt", updated_at as "updatedAt" from crm_customers where merged_into is null and`,
  relations: `select id, from_id as "fromId", to_id as "toId", type, created_at as "createdAt" from crm_relations`,
  deals: `select id, external_id as "externalId", title, customer_id as "customerId", pipeline_id as "pipelineId", stage_id as "stageId", status, amount, currency, owner_id as "ownerId", to_char(expected_close_date, 'YYYY-MM-DD') as "expectedCloseDate", lost_reason as "lostReason", closed_at as "closedAt", created_at as "createdAt", updated_at as "updatedAt" from crm_deals`,
};

/** The next `limit` records of a resource after id `after`, in id order, with their exported column names. */
export async function exportBatch(
  em: Em,
  tenantId: string,
  resource: ExportResource,
  after: string,
  limit: number,
): Promise<Record<string, unknown>[]> {
  return em.execute<Record<string, unknown>[]>(
    `${SQL[resource]} ${resource === 'customers' ? '' : 'where'} tenant_id = ? and id > ? order by id limit ?`,
    [tenantId, after, limit],
  );
}
