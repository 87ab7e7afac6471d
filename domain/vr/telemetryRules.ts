import { newId } from '../../entities/base';
import { TELEMETRY_LABEL_LENGTH, TELEMETRY_TYPE_LENGTH } from '../../entities/vr/telemetry';
import type { TelemetryEventPayload, TelemetryJob } from '../../queues/vr';
import type { NamedUserRow, ParticipantRow, SessionCountRow, StepRow } from './store/telemetry';
import { SIMULATION_COMPLETED, STEP_PASSED } from './telemetryVocabulary';

/** The pure part of applying telemetry batches (ingestTelemetry.ts): which events go in, and what they add up to. */

/** Code points (PostgreSQL's count for varchar(n)) of `s` are at most `max`; code units bound them from above. */
const fits = (s: unknown, max: number) => typeof s !== 'string' || s.length <= max || [...s].length <= max;

/** An event vr_telemetry_events (type and label varchar) and vr_step_passes can hold. */
export const fitsColumns = (e: TelemetryEventPayload) =>
  fits(e.type, TELEMETRY_TYPE_LENGTH) && fits(e.label, TELEMETRY_LABEL_LENGTH);

/** A batch that lost events its columns cannot hold. */
export interface TrimmedBatch {
  tenantId: string;
  sessionId: string;
  batchKey: string;
  /** Events dropped. */
  events: number;
}

/**
 * One job per tenant, session and batch key (the last one given wins), session ids lower case (as PostgreSQL
 * returns them, whatever case the request's path had), each without the events its columns cannot hold.
 * Defence: such an event (queued before the edge checked lengths in code points) is dropped alone, not retried
 * with its whole batch forever (varchar(n) refuses the insert).
 */
export function uniqueStorableBatches(jobs: TelemetryJob[]): { batches: TelemetryJob[]; trimmed: TrimmedBatch[] } {
  const unique = new Map<string, TelemetryJob>();
  const trimmed: TrimmedBatch[] = [];
  for (let job of jobs) {
    const storable = job.events.filter(fitsColumns);
    if (storable.length < job.events.length) {
      trimmed.push({
        tenantId: job.tenantId,
        sessionId: job.sessionId,
        batchKey: job.batchKey,
        events: job.events.length - storable.length,
      });
      job = { ...job, events: storable };
    }
    const sessionId = job.sessionId.toLowerCase();
    unique.set(
      `${job.tenantId}/${sessionId}/${job.batchKey}`,
      sessionId === job.sessionId ? job : { ...job, sessionId },
    );
  }
  return { batches: [...unique.values()], trimmed };
}

/** The users events name other than their batch's sender (lower case), once per tenant and session. */
export function namedOthers(batches: TelemetryJob[]): NamedUserRow[] {
  const named = new Map<string, NamedUserRow>();
  for (const b of batches) {
    const sender = b.senderId.toLowerCase();
    for (const e of b.events) {
      const userId = e.userId?.toLowerCase();
      if (userId !== undefined && userId !== sender)
        named.set(`${b.tenantId}/${b.sessionId}/${userId}`, { t: b.tenantId, s: b.sessionId, u: userId });
    }
  }
  return [...named.values()];
}

/** The events of a batch that will be applied. */
export interface ApplicableBatch {
  job: TelemetryJob;
  events: TelemetryEventPayload[];
}

/** A new batch whose events naming a member who took no part in the session were dropped. */
export interface DroppedEvents {
  tenantId: string;
  sessionId: string;
  batchKey: string;
  senderId: string;
  /** Events dropped. */
  events: number;
  /** The user ids they named. */
  userIds: string[];
}

/**
 * The events of each batch that may be applied: all but those naming (userId, any case) someone in `refused`
 * ("tenantId/sessionId/userId", lower case) who is not the sender; those are dropped and reported. A batch
 * without such events keeps its array as it came.
 */
export function splitAttributable(
  batches: TelemetryJob[],
  refused: ReadonlySet<string>,
): { applied: ApplicableBatch[]; dropped: DroppedEvents[] } {
  if (!refused.size) return { applied: batches.map((job) => ({ job, events: job.events })), dropped: [] };
  const applied: ApplicableBatch[] = [];
  const dropped: DroppedEvents[] = [];
  for (const job of batches) {
    const sender = job.senderId.toLowerCase();
    const mayApply = (e: TelemetryEventPayload) => {
      const userId = e.userId?.toLowerCase();
      return userId === undefined || userId === sender || !refused.has(`${job.tenantId}/${job.sessionId}/${userId}`);
    };
    if (job.events.every(mayApply)) {
      applied.push({ job, events: job.events });
      continue;
    }
    const events = job.events.filter(mayApply);
    const forged = job.events.filter((e) => !mayApply(e));
    applied.push({ job, events });
    dropped.push({
      tenantId: job.tenantId,
      sessionId: job.sessionId,
      batchKey: job.batchKey,
      senderId: job.senderId,
      events: forged.length,
      userIds: [...new Set(forged.map((e) => e.userId!.toLowerCase()))],
    });
  }
  return { applied, dropped };
}

/** What applied events add up to: per session, per distinct step passed, per participant. */
export interface TelemetryTally {
  events: number;
  sessions: SessionCountRow[];
  steps: StepRow[];
  participants: ParticipantRow[];
}

/**
 * Adds up the events: a session counts its events and its latest receipt; a participant (lower-case user id:
 * one per user, however a headset spells it; the sender when the event names nobody) counts their events, their
 * last step_passed label and whether they sent simulation_completed; a step counts once per user and label.
 * `id` names a participant row should it be new.
 */
export function tally(applied: ApplicableBatch[], id: () => string = newId): TelemetryTally {
  const sessions = new Map<string, SessionCountRow>();
  const steps = new Map<string, StepRow>();
  const participants = new Map<string, ParticipantRow>();
  let events = 0;
  for (const { job: b, events: batchEvents } of applied) {
    if (!batchEvents.length) continue;
    events += batchEvents.length;
    const session = sessions.get(b.sessionId) ?? { s: b.sessionId, n: 0, r: b.receivedAt };
    session.n += batchEvents.length;
    if (b.receivedAt > session.r) session.r = b.receivedAt;
    sessions.set(b.sessionId, session);
    for (const e of batchEvents) {
      const userId = (e.userId ?? b.senderId).toLowerCase();
      const key = `${b.sessionId}/${userId}`;
      const p = participants.get(key) ?? { i: id(), t: b.tenantId, s: b.sessionId, u: userId, n: 0, l: null, c: false };
      p.n++;
      if (e.type === STEP_PASSED) {
        p.l = e.label;
        steps.set(`${key}/${e.label}`, { t: b.tenantId, s: b.sessionId, u: userId, l: e.label, r: b.receivedAt });
      } else if (e.type === SIMULATION_COMPLETED) {
        p.c = true;
      }
      participants.set(key, p);
    }
  }
  return {
    events,
    sessions: [...sessions.values()],
    steps: [...steps.values()],
    participants: [...participants.values()],
  };
}
