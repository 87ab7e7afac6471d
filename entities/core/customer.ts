import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const customerKinds = ['person', 'organisation'] as const;
export type CustomerKind = (typeof customerKinds)[number];

/** Roles a party plays for the organisation; a customer holds any number of them. */
export const customerRoles = [
  'client',
  'prospect',
  'lead',
  'supplier',
  'partner',
  'investor',
  'reseller',
  'other',
] as const;
export type CustomerRole = (typeof customerRoles)[number];

export const contactTypes = ['work', 'home', 'mobile', 'billing', 'shipping', 'other'] as const;
export type ContactType = (typeof contactTypes)[number];

/** One e-mail address or phone number; exactly one of a list is primary (the first when none is marked). */
export interface ContactPoint {
  type: ContactType;
  value: string;
  primary: boolean;
}

export interface PostalAddress {
  type: ContactType;
  line1: string;
  line2: string | null;
  postalCode: string | null;
  city: string | null;
  region: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  primary: boolean;
}

/** Values of the tenant's custom fields by key (validated against crm_custom_fields). */
export type CustomValues = Record<string, string | number | boolean>;

/**
 * A party of the CRM (Twenty/Odoo style): a person or an organisation, with roles, structured contact details,
 * custom field values and relations to other parties (crm_relations). Invoicing and booking refer to it.
 * `primaryEmail` (lower-cased) is the deduplication key of findOrCreateCustomer; `externalId` the key of
 * integration imports (unique per tenant, so a replayed import updates). `searchText` feeds the trigram index.
 */
export const Customer = defineEntity({
  name: 'Customer',
  tableName: 'crm_customers',
  // `live`: merged customers (soft-deleted, mergedInto set) are left out of every ORM read unless it says otherwise.
  filters: { ...tenantFilter, live: { name: 'live', cond: { mergedInto: null }, default: true } },
  checks: [
    {
      name: 'crm_customers_merged_check',
      expression: '(merged_into is null) = (merged_at is null) and merged_into is distinct from id',
    },
  ],
  indexes: [
    {
      name: 'crm_customers_tenant_name_key',
      expression: 'create index "crm_customers_tenant_name_key" on "crm_customers" ("tenant_id", lower("name"), "id")',
    },
    // createdAt sorts (by id) of one organisation: without it they walk the primary key across every tenant.
    { properties: ['tenantId', 'id'] },
    { properties: ['tenantId', 'updatedAt', 'id'] },
    { properties: ['tenantId', 'primaryEmail'] },
    {
      name: 'crm_customers_roles_gin',
      expression: 'create index "crm_customers_roles_gin" on "crm_customers" using gin ("roles")',
    },
    {
      name: 'crm_customers_tags_gin',
      expression: 'create index "crm_customers_tags_gin" on "crm_customers" using gin ("tags")',
    },
    {
      name: 'crm_customers_custom_gin',
      expression: 'create index "crm_customers_custom_gin" on "crm_customers" using gin ("custom" jsonb_path_ops)',
    },
    // The customers a spreadsheet import created (its undo deletes them).
    {
      name: 'crm_customers_import_index',
      expression:
        'create index "crm_customers_import_index" on "crm_customers" ("tenant_id", "import_id") where "import_id" is not null',
    },
    // Duplicates (migration 20261212060000_crm_duplicates, domain/core/crm/duplicates): keys and fuzzy names.
    {
      name: 'crm_customers_dedup_keys_gin',
      expression:
        'create index "crm_customers_dedup_keys_gin" on "crm_customers" using gin (crm_dedup_keys("emails", "phones", "custom")) where "merged_into" is null',
    },
    {
      name: 'crm_customers_dedup_name_trgm',
      expression:
        'create index "crm_customers_dedup_name_trgm" on "crm_customers" using gin (crm_dedup_name("name") gin_trgm_ops) where "merged_into" is null',
    },
    {
      name: 'crm_customers_merged_into_index',
      expression:
        'create index "crm_customers_merged_into_index" on "crm_customers" ("tenant_id", "merged_into") where "merged_into" is not null',
    },
    {
      name: 'crm_customers_search_trgm',
      expression: 'create index "crm_customers_search_trgm" on "crm_customers" using gin ("search_text" gin_trgm_ops)',
    },
  ],
  uniques: [{ properties: ['tenantId', 'externalId'] }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    kind: p.enum([...customerKinds]),
    name: p.string().length(200),
    roles: p.array().columnType('text[]').default([]),
    tags: p.array().columnType('text[]').default([]),
    emails: p.json<ContactPoint[]>().default([]),
    phones: p.json<ContactPoint[]>().default([]),
    addresses: p.json<PostalAddress[]>().default([]),
    /** The primary e-mail, lower-cased (null without e-mails). */
    primaryEmail: p.string().length(320).nullable(),
    custom: p.json<CustomValues>().defaultRaw("'{}'"),
    /** The member responsible for the relationship. */
    ownerId: p.uuid().nullable(),
    /** Id of the record in the system it was imported from (integration hub). */
    externalId: p.string().length(200).nullable(),
    /** The spreadsheet import that created the customer (null otherwise; cleared when that import is undone). */
    importId: p.uuid().nullable(),
    /** Time of the latest activity that happened with the party (note, call, e-mail, meeting, completed task). */
    lastContactAt: p.datetime().nullable(),
    /** Lower-cased name, e-mails and phone digits: what search matches (trigram index). */
    searchText: p.text().hidden(),
    /** The customer this one was merged into (then it is soft-deleted: the `live` filter hides it). */
    mergedInto: p.uuid().nullable(),
    mergedAt: p.datetime().nullable(),
  },
});
export type Customer = InferEntity<typeof Customer>;
