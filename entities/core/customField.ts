import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const customFieldTypes = ['text', 'number', 'date', 'boolean', 'select'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

/**
 * A field the organisation adds to its customers, identified by `key`. Values live in crm_customers.custom and
 * are validated against the definition on every write (text up to 2,000 characters, finite number, date
 * YYYY-MM-DD, boolean, one of `options` for select).
 */
export const CustomField = defineEntity({
  name: 'CustomField',
  tableName: 'crm_custom_fields',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'key'] }],
  checks: [{ name: 'crm_custom_fields_options_check', expression: `(type = 'select') = (cardinality(options) > 0)` }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    key: p.string().length(64),
    label: p.string().length(120),
    type: p.enum([...customFieldTypes]),
    /** Allowed values of a select field (empty for other types). */
    options: p.array().columnType('text[]').default([]),
  },
});
export type CustomField = InferEntity<typeof CustomField>;
