import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../base';

/**
 * An organisation's storage consumption: bytes stored (`usedBytes`, by file category in `byType`) and bytes
 * reserved by uploads in flight. Reservations are a conditional UPDATE of this one row (used + reserved +
 * size <= quota), so concurrent uploads are serialised by its row lock and can never pass the quota together.
 */
export const CloudUsage = defineEntity({
  name: 'CloudUsage',
  tableName: 'cloud_usage',
  filters: tenantFilter,
  checks: [{ name: 'cloud_usage_non_negative', expression: `"used_bytes" >= 0 and "reserved_bytes" >= 0` }],
  properties: {
    tenantId: p.uuid().primary(),
    usedBytes: p.bigint('number').default(0),
    reservedBytes: p.bigint('number').default(0),
    byType: p.json<Record<string, number>>().default('{}'),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type CloudUsage = InferEntity<typeof CloudUsage>;

/** Usage reported by other modules (POST /api/cloud/internal/usage), applied once per (tenant, event id). */
export const CloudUsageEvent = defineEntity({
  name: 'CloudUsageEvent',
  tableName: 'cloud_usage_events',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    eventId: p.string().length(100).primary(),
    deltaBytes: p.bigint('number'),
    category: p.string().length(20),
    source: p.string().length(40),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type CloudUsageEvent = InferEntity<typeof CloudUsageEvent>;
