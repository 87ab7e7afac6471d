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
 * The telemetry edge: admits the batch (session known in the tenant and accepting, from Redis), drops a
 * replay of an Idempotency-Key already seen (Redis SET NX), and enqueues ONE job for the batch. No database
 * query on this path; the worker applies the batch. The database keeps the batch key unique as well, so a
 * replay past the Redis TTL or a re-run job still adds nothing.
 */
export async function acceptTelemetry(ctx: TenantContext, props: AcceptTelemetryProps): Promise<AcceptedBatch> {
  const { services, tenantId } = ctx;
  await new SessionGate(services).admit(tenantId, props.sessionId);
  const batchKey = props.idempotencyKey ?? newId();
  const seen = props.idempotencyKey ? services.key('vr', 'telemetry-key', props.sessionId, digest(props.idempotencyKey)) : null;
  if (seen && !(await services.redis.set(seen, '1', 'EX', IDEMPOTENCY_TTL_SECONDS, 'NX'))) return { batchKey, events: props.events.length, duplicate: true };

  const job: TelemetryJob = {
    tenantId,
    sessionId: props.sessionId,
    batchKey,
    senderId: ctx.userId!,
    receivedAt: new Date().toISOString(),
    events: props.events,
  };
  try {
    await services.queues.add(telemetryQueue, job, { jobId: `${props.sessionId}.${digest(batchKey)}` });
  } catch (err) {
    // Not enqueued: forget the key so the client's retry is not taken for a replay.
    if (seen) await services.redis.del(seen).catch(() => undefined);
    throw err;
  }
  return { batchKey, events: job.events.length, duplicate: false };
}
