import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { Customer } from './customer';
import { Pipeline, PipelineStage } from './pipeline';

export const dealStatuses = ['open', 'won', 'lost'] as const;
export type DealStatus = (typeof dealStatuses)[number];

/**
 * A deal with a customer, in a stage of a pipeline. Status rules (enforced by checks): an open deal has no
 * closedAt; a won or lost one has; only a lost one has a lostReason. A trigger keeps the stage inside the
 * deal's pipeline. Amount in integer cents of `currency`.
 */
export const Deal = defineEntity({
  name: 'Deal',
  tableName: 'crm_deals',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'pipelineId', 'status', 'stageId'] },
    { properties: ['tenantId', 'customerId'] },
    { properties: ['tenantId', 'ownerId'] },
  ],
  uniques: [{ properties: ['tenantId', 'externalId'] }],
  checks: [
    { name: 'crm_deals_closed_check', expression: `(status = 'open') = (closed_at is null)` },
    { name: 'crm_deals_lost_reason_check', expression: `(status = 'lost') = (lost_reason is not null)` },
    { name: 'crm_deals_amount_check', expression: 'amount >= 0' },
  ],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    title: p.string().length(200),
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').deleteRule('restrict'),
    pipelineId: () => p.manyToOne(Pipeline).mapToPk().fieldName('pipeline_id').deleteRule('restrict'),
    stageId: () => p.manyToOne(PipelineStage).mapToPk().fieldName('stage_id').deleteRule('restrict'),
    /** Integer cents. */
    amount: p.bigint('number'),
    currency: p.string().length(3),
    ownerId: p.uuid().nullable(),
    status: p.enum([...dealStatuses]).default('open'),
    lostReason: p.string().length(500).nullable(),
    expectedCloseDate: p.string().columnType('date').nullable(),
    closedAt: p.datetime().nullable(),
    /** Last time the deal entered a stage (created, moved). */
    stageChangedAt: p.datetime(),
    externalId: p.string().length(200).nullable(),
  },
});
export type Deal = InferEntity<typeof Deal>;

export const dealEventTypes = ['created', 'moved', 'won', 'lost', 'reopened'] as const;
export type DealEventType = (typeof dealEventTypes)[number];

/** The deal's history (immutable: a trigger refuses updates): every stage entered and status change, with who and when. */
export const DealEvent = defineEntity({
  name: 'DealEvent',
  tableName: 'crm_deal_events',
  filters: tenantFilter,
  indexes: [{ properties: ['dealId', 'at'] }],
  properties: {
    ...tenantColumns(),
    dealId: () => p.manyToOne(Deal).mapToPk().fieldName('deal_id').deleteRule('cascade'),
    type: p.enum([...dealEventTypes]),
    fromStageId: p.uuid().nullable(),
    toStageId: p.uuid().nullable(),
    /** The acting member; null for imports and system work. */
    actorId: p.uuid().nullable(),
    at: p.datetime(),
    reason: p.string().length(500).nullable(),
  },
});
export type DealEvent = InferEntity<typeof DealEvent>;
