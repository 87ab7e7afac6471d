import type { Knex } from '@mikro-orm/postgresql';
import { newId } from '../../entities/base';
import type { Em } from '../../lib/db';
import type { Logger } from '../../lib/logger';
import type { TelemetryEventPayload, TelemetryJob } from '../../queues/vr';
import { SIMULATION_COMPLETED, STEP_PASSED } from './telemetryVocabulary';

export interface IngestResult {
  batches: number;
  duplicates: number;
  /** Events applied. */
  events: number;
  /** Events of the new batches dropped for naming a member who took no part in the session (absent: none). */
  dropped?: number;
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

// Every statement takes its rows as ONE JSON parameter (json_to_recordset): a set-based multi-row INSERT
// whose text never changes, whatever the number of rows. Events go in as the batches hold them (no row
// built per event in JS; half the bytes of a flat row list, as fast for PostgreSQL).
const INSERT_BATCHES = `
insert into vr_telemetry_batches (tenant_id, session_id, batch_key, events_count, received_at)
select b.t, b.s, b.k, b.n, b.r from json_to_recordset(?::json) as b(t uuid, s uuid, k text, n int, r timestamptz)
on conflict do nothing
returning session_id, batch_key`;

// Which of the users named by events (other than their senders) may NOT be: members of the batch's tenant
// who did not take part in the session (hosted or joined it: joinedAt is set then and never cleared; a row
// created by telemetry alone has none). Anyone else named who is no member is a simulated trainee.
const MEMBERS_NOT_JOINED = `
select x.t as tenant_id, x.s as session_id, x.u as user_id from json_to_recordset(?::json) as x(t uuid, s uuid, u uuid)
where exists (select 1 from memberships m where m.tenant_id = x.t and m.user_id = x.u)
  and not exists (select 1 from vr_session_participants p where p.session_id = x.s and p.user_id = x.u and p.tenant_id = x.t and p.joined_at is not null)`;

const LOCK_SESSIONS = `select id from vr_sessions where id in (select value::uuid from json_array_elements_text(?::json)) order by id for update`;

export const INSERT_EVENTS = `
insert into vr_telemetry_events (tenant_id, session_id, user_id, type, label, detail, received_at)
select b.t, b.s, coalesce(e."userId", b.u), e.type, e.label, e.detail, b.r
from json_to_recordset(?::json) as b(t uuid, s uuid, u uuid, r timestamptz, e json),
     json_to_recordset(b.e) as e("userId" uuid, type text, label text, detail text)`;

const UPDATE_SESSIONS = `
update vr_sessions s set events_count = s.events_count + d.n, last_event_at = greatest(s.last_event_at, d.r)
from json_to_recordset(?::json) as d(s uuid, n int, r timestamptz) where s.id = d.s`;

// New distinct steps (the step rows that did not exist) feed the participants' upsert in the same statement.
const UPSERT_PARTICIPANTS = `
with passed as (
  insert into vr_step_passes (tenant_id, session_id, user_id, label, passed_at)
  select x.t, x.s, x.u, x.l, x.r from json_to_recordset(?::json) as x(t uuid, s uuid, u uuid, l text, r timestamptz)
  on conflict do nothing
  returning session_id, user_id
), fresh as (
  select session_id, user_id, count(*)::int as n from passed group by session_id, user_id
)
insert into vr_session_participants as p (id, tenant_id, created_at, session_id, user_id, is_host, events_count, steps_passed, last_step, completed_at)
select a.i, a.t, now(), a.s, a.u, false, a.n, coalesce(f.n, 0), a.l,
       case when a.c or coalesce(f.n, 0) >= ss.simulation_steps then now() end
from json_to_recordset(?::json) as a(i uuid, t uuid, s uuid, u uuid, n int, l text, c boolean)
join vr_sessions ss on ss.id = a.s
left join fresh f on f.session_id = a.s and f.user_id = a.u
order by a.s, a.u
on conflict (session_id, user_id) do update set
  events_count = p.events_count + excluded.events_count,
  steps_passed = p.steps_passed + excluded.steps_passed,
  last_step = coalesce(excluded.last_step, p.last_step),
  completed_at = coalesce(p.completed_at, excluded.completed_at,
    case when p.steps_passed + excluded.steps_passed >= (select simulation_steps from vr_sessions where id = p.session_id) then now() end)`;

/** Code points (PostgreSQL's count for varchar(n)) of `s` are at most `max`; code units bound them from above. */
const fits = (s: unknown, max: number) => typeof s !== 'string' || s.length <= max || [...s].length <= max;
/** An event vr_telemetry_events (type varchar(64), label varchar(200)) and vr_step_passes can hold. */
const fitsColumns = (e: TelemetryEventPayload) => fits(e.type, 64) && fits(e.label, 200);

/**
 * Applies telemetry batches in ONE transaction: records each batch key (a batch already applied is
 * skipped: idempotent), bulk-inserts the events, and updates the per-session counters and per-participant
 * progress (distinct steps passed, last step, completion). Locks are taken sessions first, then step
 * passes, then participants, the order the room use cases follow too, so concurrent writers never deadlock.
 *
 * An event may name (userId) its sender, a user who took part in the session (hosted or joined it), or an id
 * that is not a member of the batch's organisation: a simulated trainee of an instructor's headset (its
 * participant row has no joinedAt). The edge refuses the rest already when it can tell (acceptTelemetry.ts);
 * this is the authority, in the same transaction (MEMBERS_NOT_JOINED): events naming a MEMBER of the
 * organisation who is not the sender and never joined are dropped: not stored, not counted in the session's
 * or anyone's figures (attributing them to the sender would forge the sender's record instead). The batch
 * counts as applied all the same (its key is recorded), so a replay adds nothing either. Each batch that lost
 * events is logged to `log` (warn: who sent it, how many events, which user ids, the first 20).
 */
export async function ingestTelemetry(em: Em, jobs: TelemetryJob[], log?: Pick<Logger, 'warn'>): Promise<IngestResult> {
  const unique = new Map<string, TelemetryJob>();
  for (let job of jobs) {
    // Defence: an event the columns cannot hold (queued before the edge checked lengths in code points) is dropped
    // alone, not retried with its whole batch forever (varchar(n) refuses the insert).
    const storable = job.events.filter(fitsColumns);
    if (storable.length < job.events.length) {
      log?.warn({ tenantId: job.tenantId, sessionId: job.sessionId, batchKey: job.batchKey, events: job.events.length - storable.length }, 'telemetry events too long to store dropped');
      job = { ...job, events: storable };
    }
    // Ids as PostgreSQL returns them (lower case), whatever case the request's path had.
    const sessionId = job.sessionId.toLowerCase();
    unique.set(`${job.tenantId}/${sessionId}/${job.batchKey}`, sessionId === job.sessionId ? job : { ...job, sessionId });
  }

  const { result, dropped } = await em.getKnex().transaction(async (trx) => {
    const inserted = await rows<{ session_id: string; batch_key: string }>(
      trx,
      INSERT_BATCHES,
      [...unique.values()].map((j) => ({ t: j.tenantId, s: j.sessionId, k: j.batchKey, n: j.events.length, r: j.receivedAt })),
    );
    const fresh = new Set(inserted.map((r) => `${r.session_id}/${r.batch_key}`));
    const batches = [...unique.values()].filter((j) => fresh.has(`${j.sessionId}/${j.batchKey}`));
    const result: IngestResult = { batches: batches.length, duplicates: jobs.length - batches.length, events: 0 };
    if (!batches.length) return { result, dropped: [] };

    await trx.raw(LOCK_SESSIONS, [JSON.stringify([...new Set(batches.map((b) => b.sessionId))])]);
    const { applied, dropped } = await attributable(trx, batches);

    const sessions = new Map<string, { s: string; n: number; r: string }>();
    const steps = new Map<string, object>();
    const participants = new Map<string, { i: string; t: string; s: string; u: string; n: number; l: string | null; c: boolean }>();
    for (const { job: b, events } of applied) {
      if (!events.length) continue;
      const session = sessions.get(b.sessionId) ?? { s: b.sessionId, n: 0, r: b.receivedAt };
      session.n += events.length;
      if (b.receivedAt > session.r) session.r = b.receivedAt;
      sessions.set(b.sessionId, session);
      for (const e of events) {
        // Lower case: one participant per user, however a headset spells the id.
        const userId = (e.userId ?? b.senderId).toLowerCase();
        const key = `${b.sessionId}/${userId}`;
        const p = participants.get(key) ?? { i: newId(), t: b.tenantId, s: b.sessionId, u: userId, n: 0, l: null, c: false };
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
    result.events = applied.reduce((n, a) => n + a.events.length, 0);
    if (dropped.length) result.dropped = dropped.reduce((n, d) => n + d.events, 0);
    if (!result.events) return { result, dropped };

    const withEvents = applied.filter((a) => a.events.length);
    await trx.raw(INSERT_EVENTS, [JSON.stringify(withEvents.map(({ job: b, events }) => ({ t: b.tenantId, s: b.sessionId, u: b.senderId, r: b.receivedAt, e: events })))]);
    await trx.raw(UPDATE_SESSIONS, [JSON.stringify([...sessions.values()])]);
    await trx.raw(UPSERT_PARTICIPANTS, [JSON.stringify([...steps.values()]), JSON.stringify([...participants.values()])]);
    return { result, dropped };
  });
  // After the commit: a group that fails and is retried logs its drops once.
  for (const { events, userIds, ...batch } of dropped) {
    log?.warn({ ...batch, droppedEvents: events, userIds: userIds.slice(0, 20) }, 'telemetry events naming a member who took no part in the session were dropped');
  }
  return result;
}

/**
 * The events of each batch that may be applied: all but those naming a member of its organisation who took
 * no part in the session (one statement for all the batches, only when some event names someone other than
 * its sender); those are dropped and reported. A batch without such events keeps its array as it came.
 */
async function attributable(trx: Knex.Transaction, batches: TelemetryJob[]): Promise<{ applied: { job: TelemetryJob; events: TelemetryEventPayload[] }[]; dropped: DroppedEvents[] }> {
  const named = new Map<string, { t: string; s: string; u: string }>();
  for (const b of batches) {
    const sender = b.senderId.toLowerCase();
    for (const e of b.events) {
      const userId = e.userId?.toLowerCase();
      if (userId !== undefined && userId !== sender) named.set(`${b.tenantId}/${b.sessionId}/${userId}`, { t: b.tenantId, s: b.sessionId, u: userId });
    }
  }
  if (!named.size) return { applied: batches.map((job) => ({ job, events: job.events })), dropped: [] };

  const refused = new Set(
    (await rows<{ tenant_id: string; session_id: string; user_id: string }>(trx, MEMBERS_NOT_JOINED, [...named.values()])).map((r) => `${r.tenant_id}/${r.session_id}/${r.user_id}`),
  );
  if (!refused.size) return { applied: batches.map((job) => ({ job, events: job.events })), dropped: [] };
  const applied: { job: TelemetryJob; events: TelemetryEventPayload[] }[] = [];
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

async function rows<T>(trx: Knex.Transaction, sql: string, data: object[]): Promise<T[]> {
  const res = (await trx.raw(sql, [JSON.stringify(data)])) as { rows: T[] };
  return res.rows;
}
