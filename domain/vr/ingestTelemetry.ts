import type { Em } from '../../lib/db';
import type { Logger } from '../../lib/logger';
import type { TelemetryJob } from '../../queues/vr';
import {
  addSessionCounts,
  insertBatches,
  insertEvents,
  lockSessions,
  membersNotJoined,
  recordProgress,
  type Trx,
} from './store/telemetry';
import {
  namedOthers,
  splitAttributable,
  tally,
  uniqueStorableBatches,
  type ApplicableBatch,
  type DroppedEvents,
} from './telemetryRules';

export interface IngestResult {
  batches: number;
  duplicates: number;
  /** Events applied. */
  events: number;
  /** Events of the new batches dropped for naming a member who took no part in the session (absent: none). */
  dropped?: number;
}

/**
 * Applies telemetry batches in ONE transaction: records each batch key (a batch already applied is
 * skipped: idempotent), bulk-inserts the events, and updates the per-session counters and per-participant
 * progress (distinct steps passed, last step, completion). Locks are taken sessions first, then step
 * passes, then participants, the order the room use cases follow too, so concurrent writers never deadlock.
 *
 * An event may name (userId) its sender, a user who took part in the session (hosted or joined it), or an id
 * that is not a member of the batch's organisation: a simulated trainee of an instructor's headset (its
 * participant row has no joinedAt). The edge refuses the rest already when it can tell (acceptTelemetry.ts);
 * this is the authority, in the same transaction (membersNotJoined): events naming a MEMBER of the
 * organisation who is not the sender and never joined are dropped: not stored, not counted in the session's
 * or anyone's figures (attributing them to the sender would forge the sender's record instead). The batch
 * counts as applied all the same (its key is recorded), so a replay adds nothing either. Each batch that lost
 * events is logged to `log` (warn: who sent it, how many events, which user ids, the first 20).
 */
export async function ingestTelemetry(em: Em, jobs: TelemetryJob[], log?: Pick<Logger, 'warn'>): Promise<IngestResult> {
  const { batches: unique, trimmed } = uniqueStorableBatches(jobs);
  for (const t of trimmed) log?.warn(t, 'telemetry events too long to store dropped');

  const { result, dropped } = await em.getKnex().transaction(async (trx) => {
    const inserted = await insertBatches(
      trx,
      unique.map((j) => ({ t: j.tenantId, s: j.sessionId, k: j.batchKey, n: j.events.length, r: j.receivedAt })),
    );
    const fresh = new Set(inserted.map((r) => `${r.session_id}/${r.batch_key}`));
    const batches = unique.filter((j) => fresh.has(`${j.sessionId}/${j.batchKey}`));
    const result: IngestResult = { batches: batches.length, duplicates: jobs.length - batches.length, events: 0 };
    if (!batches.length) return { result, dropped: [] };

    await lockSessions(trx, [...new Set(batches.map((b) => b.sessionId))]);
    const { applied, dropped } = await attributable(trx, batches);
    const sums = tally(applied);
    result.events = sums.events;
    if (dropped.length) result.dropped = dropped.reduce((n, d) => n + d.events, 0);
    if (!result.events) return { result, dropped };

    const withEvents = applied.filter((a) => a.events.length);
    await insertEvents(
      trx,
      withEvents.map(({ job: b, events }) => ({
        t: b.tenantId,
        s: b.sessionId,
        u: b.senderId,
        r: b.receivedAt,
        e: events,
      })),
    );
    await addSessionCounts(trx, sums.sessions);
    await recordProgress(trx, sums.steps, sums.participants);
    return { result, dropped };
  });
  // After the commit: a group that fails and is retried logs its drops once.
  for (const { events, userIds, ...batch } of dropped) {
    log?.warn(
      { ...batch, droppedEvents: events, userIds: userIds.slice(0, 20) },
      'telemetry events naming a member who took no part in the session were dropped',
    );
  }
  return result;
}

/**
 * The events of each batch that may be applied: all but those naming a member of its organisation who took
 * no part in the session (one statement for all the batches, only when some event names someone other than
 * its sender); those are dropped and reported (splitAttributable).
 */
async function attributable(
  trx: Trx,
  batches: TelemetryJob[],
): Promise<{ applied: ApplicableBatch[]; dropped: DroppedEvents[] }> {
  const named = namedOthers(batches);
  const refused = named.length
    ? new Set((await membersNotJoined(trx, named)).map((r) => `${r.tenant_id}/${r.session_id}/${r.user_id}`))
    : new Set<string>();
  return splitAttributable(batches, refused);
}
