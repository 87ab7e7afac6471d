import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';

export const activityTypes = ['note', 'call', 'email', 'meeting', 'task'] as const;
export type ActivityType = (typeof activityTypes)[number];

/** Types that count as a contact with the party (health score recency, customer.lastContactAt). */
export const contactActivityTypes: ActivityType[] = ['call', 'email', 'meeting'];

/**
 * Something done or planned with a customer. `occurredAt` places it on the timeline (when it happened, or is
 * planned); an open follow-up has no `completedAt` and is a task or has a `dueAt`. Activities synced from other
 * systems carry `source` and `externalId` (unique per customer), so a replayed sync updates them.
 */
export const Activity = defineEntity({
  name: 'Activity',
  tableName: 'crm_activities',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'customerId', 'occurredAt', 'id'] },
    {
      name: 'crm_activities_open_due',
      expression:
        'create index "crm_activities_open_due" on "crm_activities" ("tenant_id", "due_at") where "completed_at" is null',
    },
  ],
  uniques: [{ properties: ['tenantId', 'customerId', 'source', 'externalId'] }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('cascade'),
    type: p.enum([...activityTypes]),
    subject: p.string().length(200),
    body: p.text().default(''),
    occurredAt: p.datetime(),
    dueAt: p.datetime().nullable(),
    completedAt: p.datetime().nullable(),
    assigneeId: p.uuid().nullable(),
    createdBy: p.uuid().nullable(),
    /** Where a synced activity comes from (activity-sync's source, `email` for logged e-mails); null when typed in. */
    source: p.string().length(40).nullable(),
    externalId: p.string().length(200).nullable(),
  },
});
export type Activity = InferEntity<typeof Activity>;
