import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/** A sales pipeline: ordered stages a deal moves through. */
export const Pipeline = defineEntity({
  name: 'Pipeline',
  tableName: 'crm_pipelines',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'name'] }],
  properties: {
    ...tenantColumns(),
    updatedAt: updatedAt(),
    name: p.string().length(120),
  },
});
export type Pipeline = InferEntity<typeof Pipeline>;

/** A stage of a pipeline: its place (`position`, 0 first) and the probability (0-100 %) that weights the forecast. */
export const PipelineStage = defineEntity({
  name: 'PipelineStage',
  tableName: 'crm_pipeline_stages',
  filters: tenantFilter,
  indexes: [{ properties: ['pipelineId', 'position'] }],
  checks: [{ name: 'crm_pipeline_stages_probability_check', expression: 'probability >= 0 and probability <= 100' }],
  properties: {
    ...tenantColumns(),
    pipelineId: () => p.manyToOne(Pipeline).mapToPk().fieldName('pipeline_id').deleteRule('cascade'),
    name: p.string().length(120),
    position: p.integer(),
    probability: p.integer(),
  },
});
export type PipelineStage = InferEntity<typeof PipelineStage>;
