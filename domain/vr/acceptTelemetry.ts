import { createHash } from 'node:crypto';
import { newId } from '../../entities/base';
import { Membership } from '../../entities/identity/organization';
import { isDependencyDown } from '../../lib/dependencies';
import { AppError, conflict, notFound } from '../../lib/errors';
import { telemetryQueue, type TelemetryJob } from '../../queues/vr';
import { redriveJob } from '../jobs/redriveJob';
import type { TenantContext } from '../context';
import { LiveRooms } from './store/liveRooms';
import { SessionGate } from './store/sessionGate';

export interface TelemetryEventInput {
  /**
   * Whose event: the sender (the default), a user who took part in the session (hosted or joined it), or a
   * simulated trainee (an id that is not a member of the organisation).
   */
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
  /** The batch was accepted before and is stored, or its job will store it: nothing was enqueued again. */
  duplicate: boolean;
}

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

const digest = (value: string) => createHash('sha1').update(value).digest('hex');

/** Named ids outside the participant set beyond which the edge asks PostgreSQL once instead of the permission cache. */
const CACHED_LOOKUPS = 32;

/**
 * Events may name (userId) the sender, a user who took part in the session (hosted or joined it), or an id
 * that is not a member of the organisation: a simulated trainee of an instructor's headset (a participant row
 * without joinedAt). Naming a MEMBER who is not the sender and never joined forges their training record:
 * 422 not_a_participant, per such event; nothing is queued and the Idempotency-Key stays unused.
 *
 * Cost: a batch naming only the sender costs nothing more; one naming others one Redis round trip (the
 * session's participant set, LiveRooms.nonParticipants). Only ids outside a set known complete are looked up:
 * membership comes from the PermissionResolver (process memo, then the Redis hash it shares with every
 * permission guard, so a headset's stable trainee ids reach PostgreSQL about once a minute, and a membership
 * change invalidates it at once: acceptInvitation, removeMember, setMemberRoles), a non-empty permission set
 * meaning "member". No cached membership check exists apart from it (domain/identity has none). Its blind
 * spot: a member whose roles grant no permission at all reads as a non-member here; that is what the worker
 * is for. A batch naming more than CACHED_LOOKUPS such ids is checked with one query instead of as many cache
 * misses. When the set is not known complete (lost or expired), or PostgreSQL cannot answer a lookup, the
 * batch is accepted and the worker, the authority (memberships and participants in the database, in its
 * transaction), drops the events naming a member who took no part (ingestTelemetry.ts).
 */
async function checkNamedUsers(ctx: TenantContext, sessionId: string, events: TelemetryEventInput[]): Promise<void> {
  const sender = ctx.userId!.toLowerCase();
  const named = new Set<string>();
  for (const e of events) {
    const userId = e.userId?.toLowerCase();
    if (userId !== undefined && userId !== sender) named.add(userId);
  }
  if (!named.size) return;
  const outsiders = await new LiveRooms(ctx.services).nonParticipants(sessionId, [...named]);
  if (!outsiders.size) return;
  const members = await membersAmong(ctx, [...outsiders]);
  if (!members.size) return;
  const errors = events.flatMap((e, i) =>
    e.userId !== undefined && members.has(e.userId.toLowerCase())
      ? [
          {
            field: `events[${i}].userId`,
            message: 'a member of the organisation who took no part in this session (neither hosted nor joined it)',
          },
        ]
      : [],
  );
  throw new AppError(
    422,
    'not_a_participant',
    'Events may name only the sender, a user who hosted or joined this session, or a simulated trainee (not a member)',
    errors,
  );
}

/** Which of `userIds` are members of the organisation, as far as the edge can tell (see checkNamedUsers). */
async function membersAmong(ctx: TenantContext, userIds: string[]): Promise<Set<string>> {
  try {
    if (userIds.length > CACHED_LOOKUPS) {
      const found = await ctx.em.find(Membership, { user: { $in: userIds } }, { fields: ['user'] });
      return new Set(found.map((m) => m.user.id.toLowerCase()));
    }
    const permissions = await Promise.all(userIds.map((userId) => ctx.services.permissions.of(ctx.tenantId, userId)));
    return new Set(userIds.filter((_, i) => permissions[i].size > 0));
  } catch (err) {
    // The intake needs Redis only: a PostgreSQL outage leaves the decision to the worker.
    if (isDependencyDown(err)) return new Set();
    throw err;
  }
}

/** 404 for an unknown session or another organisation's; 409 session_ended once the grace period is over. */
async function admit(ctx: TenantContext, sessionId: string): Promise<void> {
  const state = await new SessionGate(ctx.services).stateOf(ctx.tenantId, sessionId);
  if (state === 'ended') throw conflict('session_ended', 'This session has ended; its telemetry is no longer accepted');
  if (state === 'unknown') throw notFound('Session');
}

/**
 * The telemetry edge: admits the batch (session known in the tenant and accepting, from Redis), checks whom
 * its events name (only when they name someone other than the sender: one more Redis round trip, and a
 * cached membership lookup for ids outside the session's participants, see checkNamedUsers), enqueues ONE job for the batch, then tells a replay of an Idempotency-Key already seen
 * (Redis SET NX). No database query on this path (bar checkNamedUsers' cache misses); the worker applies the batch, and the database keeps the
 * batch key unique, so a replay (BullMQ also ignores the same job id while the first job waits) or a re-run
 * job adds nothing. The job is enqueued before the key is marked: a key marked for a batch that was never
 * enqueued (Redis failing between the two) would answer a retry 202 `duplicate` and lose it. A replay is answered
 * `duplicate` only while the batch is stored or its job will store it (waiting, delayed, running; a completed job
 * is deleted, so a missing one was applied): a job that failed (the only record of the batch, BullMQ ignoring an
 * add under its id) is retried and the replay answered as a new acceptance, so the headset's retry repairs it.
 * A replay costs two Redis round trips more, a first delivery nothing.
 */
export async function acceptTelemetry(ctx: TenantContext, props: AcceptTelemetryProps): Promise<AcceptedBatch> {
  const { services, tenantId } = ctx;
  // One spelling of the id for every key (the path accepts upper case too).
  const sessionId = props.sessionId.toLowerCase();
  await admit(ctx, sessionId);
  await checkNamedUsers(ctx, sessionId, props.events);
  const batchKey = props.idempotencyKey ?? newId();
  const job: TelemetryJob = {
    tenantId,
    sessionId,
    batchKey,
    senderId: ctx.userId!,
    receivedAt: new Date().toISOString(),
    events: props.events,
  };
  const jobId = `${sessionId}.${digest(batchKey)}`;
  await services.queues.add(telemetryQueue, job, { jobId });
  const seen = props.idempotencyKey
    ? services.key('vr', 'telemetry-key', sessionId, digest(props.idempotencyKey))
    : null;
  const replay = !!seen && !(await services.redis.set(seen, '1', 'EX', IDEMPOTENCY_TTL_SECONDS, 'NX'));
  const duplicate = replay && (await redriveJob(services, telemetryQueue, jobId, job, () => true)) !== 'retried';
  return { batchKey, events: job.events.length, duplicate };
}
