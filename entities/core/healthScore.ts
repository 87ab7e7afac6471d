import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../base';
import { Customer } from './customer';

/** One signal behind a score: its weight, its value (0 bad to 1 healthy), why, and the numbers behind it. */
export interface StoredSignal {
  key: string;
  label: string;
  weight: number;
  value: number;
  detail: string;
  facts: Record<string, number | string | null>;
}

export const riskLevelValues = ['low', 'medium', 'high'] as const;

/** The stored health score of a customer (recomputed by the crm-health worker), with the signals that made it. */
export const HealthScore = defineEntity({
  name: 'HealthScore',
  tableName: 'crm_health_scores',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'score'] }],
  checks: [{ name: 'crm_health_scores_score_check', expression: 'score >= 0 and score <= 100' }],
  properties: {
    customerId: () => p.manyToOne(Customer).mapToPk().fieldName('customer_id').primary().deleteRule('cascade'),
    tenantId: p.uuid(),
    score: p.integer(),
    risk: p.enum([...riskLevelValues]),
    signals: p.json<StoredSignal[]>(),
    computedAt: p.datetime(),
  },
});
export type HealthScore = InferEntity<typeof HealthScore>;
