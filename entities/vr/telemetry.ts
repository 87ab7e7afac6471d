import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../base';

/** Column sizes of telemetry (varchar(n), counted in code points): what the edge's validation and the worker check. */
export const TELEMETRY_TYPE_LENGTH = 64;
export const TELEMETRY_LABEL_LENGTH = 200;
/** An Idempotency-Key, or the id given at the edge to a batch sent without one. */
export const BATCH_KEY_LENGTH = 200;

/**
 * One telemetry event as the headset sent it. Append-only and the highest-volume table of the module:
 * a bigint identity (no UUID to generate per row) and a single secondary index. Written in bulk by
 * the telemetry worker with set-based INSERTs, never through the unit of work. Partitioned by month of
 * receivedAt (migrations/Migration20261213090000_vr_telemetry_partitions.ts): the key holds the partition
 * column, the tenant first; old months are dropped by the clock (VR_TELEMETRY_RETENTION_MONTHS).
 */
export const VrTelemetryEvent = defineEntity({
  name: 'VrTelemetryEvent',
  tableName: 'vr_telemetry_events',
  filters: tenantFilter,
  indexes: [{ properties: ['sessionId', 'id'] }],
  properties: {
    tenantId: p.uuid().primary(),
    receivedAt: p.datetime().primary(),
    id: p.bigint('string').primary().autoincrement(),
    sessionId: p.uuid(),
    userId: p.uuid(),
    type: p.string().length(TELEMETRY_TYPE_LENGTH),
    label: p.string().length(TELEMETRY_LABEL_LENGTH),
    detail: p.text(),
  },
});
export type VrTelemetryEvent = InferEntity<typeof VrTelemetryEvent>;

/**
 * A telemetry batch already applied: its Idempotency-Key (or the id given at the edge) is unique per
 * session, so a replayed request or a re-run job adds nothing twice.
 */
export const VrTelemetryBatch = defineEntity({
  name: 'VrTelemetryBatch',
  tableName: 'vr_telemetry_batches',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid().primary(),
    sessionId: p.uuid().primary(),
    batchKey: p.string().length(BATCH_KEY_LENGTH).primary(),
    eventsCount: p.integer(),
    receivedAt: p.datetime(),
  },
});
export type VrTelemetryBatch = InferEntity<typeof VrTelemetryBatch>;

/** A step a participant passed, once per distinct label: what progress counts. */
export const VrStepPass = defineEntity({
  name: 'VrStepPass',
  tableName: 'vr_step_passes',
  filters: tenantFilter,
  properties: {
    tenantId: p.uuid(),
    sessionId: p.uuid().primary(),
    userId: p.uuid().primary(),
    label: p.string().length(TELEMETRY_LABEL_LENGTH).primary(),
    passedAt: p.datetime(),
  },
});
export type VrStepPass = InferEntity<typeof VrStepPass>;
