import type { Knex } from '@mikro-orm/postgresql';
import type { TelemetryEventPayload } from '../../../queues/vr';

/**
 * The telemetry worker's statements (ingestTelemetry.ts), run in its transaction. Every statement takes its rows
 * as ONE JSON parameter (json_to_recordset): a set-based multi-row INSERT whose text never changes, whatever the
 * number of rows. Events go in as the batches hold them (no row built per event in JS; half the bytes of a flat
 * row list, as fast for PostgreSQL). Row fields are one letter: they are the JSON sent per row.
 */
export type Trx = Knex.Transaction;

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

/** A batch key to record: tenant, session, key, events, received at. */
export interface BatchRow {
  t: string;
  s: string;
  k: string;
  n: number;
  r: string;
}

/** A user named by an event: tenant, session, user. */
export interface NamedUserRow {
  t: string;
  s: string;
  u: string;
}

/** The events of one batch: tenant, session, sender (the user of events without one), received at, events. */
export interface EventsRow {
  t: string;
  s: string;
  u: string;
  r: string;
  e: TelemetryEventPayload[];
}

/** What a session gains: events applied, latest receipt. */
export interface SessionCountRow {
  s: string;
  n: number;
  r: string;
}

/** A distinct step passed: tenant, session, user, label, received at. */
export interface StepRow {
  t: string;
  s: string;
  u: string;
  l: string;
  r: string;
}

/** What a participant gains: id (for a new row), tenant, session, user, events, last step, completed. */
export interface ParticipantRow {
  i: string;
  t: string;
  s: string;
  u: string;
  n: number;
  l: string | null;
  c: boolean;
}

async function rows<T>(trx: Trx, sql: string, data: object[]): Promise<T[]> {
  const res = (await trx.raw(sql, [JSON.stringify(data)])) as { rows: T[] };
  return res.rows;
}

/** Records the batch keys; answers those that were new (a key already recorded was applied before). */
export function insertBatches(trx: Trx, batches: BatchRow[]): Promise<{ session_id: string; batch_key: string }[]> {
  return rows(trx, INSERT_BATCHES, batches);
}

/** Of the users named, the members of the tenant who did not host or join the session. */
export function membersNotJoined(
  trx: Trx,
  named: NamedUserRow[],
): Promise<{ tenant_id: string; session_id: string; user_id: string }[]> {
  return rows(trx, MEMBERS_NOT_JOINED, named);
}

/** Locks the sessions' rows, in id order (so concurrent writers never deadlock). */
export async function lockSessions(trx: Trx, sessionIds: string[]): Promise<void> {
  await trx.raw(LOCK_SESSIONS, [JSON.stringify(sessionIds)]);
}

export async function insertEvents(trx: Trx, batches: EventsRow[]): Promise<void> {
  await trx.raw(INSERT_EVENTS, [JSON.stringify(batches)]);
}

export async function addSessionCounts(trx: Trx, sessions: SessionCountRow[]): Promise<void> {
  await trx.raw(UPDATE_SESSIONS, [JSON.stringify(sessions)]);
}

/** Records the steps passed and upserts the participants' progress (distinct steps, last step, completion). */
export async function recordProgress(trx: Trx, steps: StepRow[], participants: ParticipantRow[]): Promise<void> {
  await trx.raw(UPSERT_PARTICIPANTS, [JSON.stringify(steps), JSON.stringify(participants)]);
}
