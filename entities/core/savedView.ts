import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const savedViewResources = ['customers', 'deals'] as const;
export type SavedViewResource = (typeof savedViewResources)[number];

/**
 * A named list of customers or deals: the list route's filters, a sort and the columns shown. Personal (ownerId:
 * the member who saved it, only they see and edit it) or shared with the organisation (ownerId null: every member
 * sees it, holders of core.settings.manage edit it). One name per resource and owner (or among the shared ones).
 */
export const SavedView = defineEntity({
  name: 'SavedView',
  tableName: 'crm_saved_views',
  filters: tenantFilter,
  indexes: [
    {
      name: 'crm_saved_views_name_unique',
      expression: `create unique index "crm_saved_views_name_unique" on "crm_saved_views" ("tenant_id", "resource", coalesce("owner_id", '00000000-0000-0000-0000-000000000000'::uuid), lower("name"))`,
    },
  ],
  checks: [
    { name: 'crm_saved_views_filters_check', expression: `jsonb_typeof(filters) = 'object'` },
    { name: 'crm_saved_views_columns_check', expression: 'cardinality(columns) <= 50' },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    resource: p.enum([...savedViewResources]),
    name: p.string().length(120),
    /** The member whose personal view it is; null for a view shared with the organisation. */
    ownerId: p.uuid().nullable(),
    createdBy: p.uuid().nullable(),
    /** The list route's filters by query parameter name (customers: kind, role, tag, q, custom; deals: ids, status). */
    filters: p.json<Record<string, unknown>>(),
    sort: p.string().length(40).nullable(),
    columns: p.array().columnType('text[]').default([]),
  },
});
export type SavedView = InferEntity<typeof SavedView>;
