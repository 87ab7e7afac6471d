import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import { Customer } from './customer';

/**
 * Kinds of relations, each read from its source to its target, with the name it has read the other way:
 * "Ada employee_of Acme" is "Acme employer_of Ada". Symmetric kinds have the same name both ways.
 */
export const relationInverse = {
  employee_of: 'employer_of',
  subsidiary_of: 'parent_of',
  contact_of: 'has_contact',
  reports_to: 'manages',
  partner_of: 'partner_of',
  family_of: 'family_of',
  referred_by: 'referred',
  other: 'other',
} as const;
export type RelationType = keyof typeof relationInverse;
export const relationTypes = Object.keys(relationInverse) as RelationType[];

/** Kinds that read the same both ways: "A partner_of B" is "B partner_of A", one relation. */
export const symmetricRelationTypes = relationTypes.filter((t) => relationInverse[t] === t);

/**
 * One relation between two customers of an organisation, stored once and shown from both ends: unique per
 * (from, to, type), and a symmetric kind per pair whichever end it was stored from (crm_relations_symmetric_unique,
 * on the pair in canonical order).
 */
export const CustomerRelation = defineEntity({
  name: 'CustomerRelation',
  tableName: 'crm_relations',
  filters: tenantFilter,
  indexes: [{ properties: ['toId'] }],
  uniques: [
    { properties: ['fromId', 'toId', 'type'] },
    {
      name: 'crm_relations_symmetric_unique',
      expression: `create unique index "crm_relations_symmetric_unique" on "crm_relations" (least("from_id", "to_id"), greatest("from_id", "to_id"), "type") where "type" in (${symmetricRelationTypes.map((t) => `'${t}'`).join(', ')})`,
    },
  ],
  checks: [{ name: 'crm_relations_not_self', expression: 'from_id <> to_id' }],
  properties: {
    ...tenantColumns(),
    fromId: () => p.manyToOne(Customer).mapToPk().fieldName('from_id').deleteRule('cascade'),
    toId: () => p.manyToOne(Customer).mapToPk().fieldName('to_id').deleteRule('cascade'),
    type: p.enum([...relationTypes]),
    createdBy: p.uuid().nullable(),
  },
});
export type CustomerRelation = InferEntity<typeof CustomerRelation>;
