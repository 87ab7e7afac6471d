import { createHash } from 'node:crypto';
import { newId } from '../../entities/base';
import { telemetryQueue, type TelemetryJob } from '../../queues/vr';
import type { TenantContext } from '../context';
import { SessionGate } from './sessionGate';

export interface TelemetryEventInput {
  /** Whose event; defaults to the sender. */
  userId?: string;
  type: string;
  label: string;
  detail: string;
}

export interface AcceptTelemetryProps {
  sessionId: string;
  events: TelemetryEventInput[];
  /** Makes a retried batch count once (per session, for IDEMPOTENCY_TTL_SECONDS at the edge, forever in the database). */
  idempotencyKey?: string;
}

export interface AcceptedBatch {
  /** The Idempotency-Key, or the id given to a batch sent without one. */
  batchKey: string;
  events: number;
  /** The batch was accepted before: nothing was enqueued again. */
  duplicate: boolean;
}

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

const digest = (value: string) => createHash('sha1').update(value).digest('hex');

/**
 * The telemetry edge: admits the batch (session known in the tenant and accepting, from Redis), enqueues ONE
 * job for the batch, then tells a replay of an Idempotency-Key already seen (Redis SET NX). No database
 * query on this path; the worker applies the batch, and the database keeps the batch key unique, so a replay
 * (BullMQ also ignores the same job id while the first job waits) or a re-run job adds nothing. The job is
 * enqueued before the key is marked: a key marked for a batch that was never enqueued (Redis failing between
 * the two) would answer a retry 202 `duplicate` and lose it.
 */
export async function acceptTelemetry(ctx: TenantContext, props: AcceptTelemetryProps): Promise<AcceptedBatch> {
  const { services, tenantId } = ctx;
  await new SessionGate(services).admit(tenantId, props.sessionId);
  const batchKey = props.idempotencyKey ?? newId();
  const job: TelemetryJob = {
    tenantId,
    sessionId: props.sessionId,
    batchKey,
    senderId: ctx.userId!,
    receivedAt: new Date().toISOString(),
    events: props.events,
  };
  await services.queues.add(telemetryQueue, job, { jobId: `${props.sessionId}.${digest(batchKey)}` });
  const seen = props.idempotencyKey ? services.key('vr', 'telemetry-key', props.sessionId, digest(props.idempotencyKey)) : null;
  const duplicate = !!seen && !(await services.redis.set(seen, '1', 'EX', IDEMPOTENCY_TTL_SECONDS, 'NX'));
  return { batchKey, events: job.events.length, duplicate };
}
