import type { Knex } from '@mikro-orm/postgresql';
import { newId } from '../../entities/base';
import type { Em } from '../../lib/db';
import type { TelemetryJob } from '../../queues/vr';
import { SIMULATION_COMPLETED, STEP_PASSED } from './telemetryVocabulary';

export interface IngestResult {
  batches: number;
  duplicates: number;
  events: number;
}

// Every statement takes its rows as ONE JSON parameter (json_to_recordset): a set-based multi-row INSERT
// whose text never changes, whatever the number of rows. Events go in as the batches hold them (no row
// built per event in JS; half the bytes of a flat row list, as fast for PostgreSQL).
const INSERT_BATCHES = `
insert into vr_telemetry_batches (tenant_id, session_id, batch_key, events_count, received_at)
select b.t, b.s, b.k, b.n, b.r from json_to_recordset(?::json) as b(t uuid, s uuid, k text, n int, r timestamptz)
on conflict do nothing
returning session_id, batch_key`;

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

/**
 * Applies telemetry batches in ONE transaction: records each batch key (a batch already applied is
 * skipped: idempotent), bulk-inserts the events, and updates the per-session counters and per-participant
 * progress (distinct steps passed, last step, completion). Locks are taken sessions first, then step
 * passes, then participants, the order the room use cases follow too, so concurrent writers never deadlock.
 */
export async function ingestTelemetry(em: Em, jobs: TelemetryJob[]): Promise<IngestResult> {
  const unique = new Map<string, TelemetryJob>();
  for (const job of jobs) unique.set(`${job.tenantId}/${job.sessionId}/${job.batchKey}`, job);

  return em.getKnex().transaction(async (trx) => {
    const inserted = await rows<{ session_id: string; batch_key: string }>(
      trx,
      INSERT_BATCHES,
      [...unique.values()].map((j) => ({ t: j.tenantId, s: j.sessionId, k: j.batchKey, n: j.events.length, r: j.receivedAt })),
    );
    const fresh = new Set(inserted.map((r) => `${r.session_id}/${r.batch_key}`));
    const batches = [...unique.values()].filter((j) => fresh.has(`${j.sessionId}/${j.batchKey}`));
    const result = { batches: batches.length, duplicates: jobs.length - batches.length, events: 0 };
    if (!batches.length) return result;

    const sessions = new Map<string, { s: string; n: number; r: string }>();
    const steps = new Map<string, object>();
    const participants = new Map<string, { i: string; t: string; s: string; u: string; n: number; l: string | null; c: boolean }>();
    for (const b of batches) {
      const session = sessions.get(b.sessionId) ?? { s: b.sessionId, n: 0, r: b.receivedAt };
      session.n += b.events.length;
      if (b.receivedAt > session.r) session.r = b.receivedAt;
      sessions.set(b.sessionId, session);
      for (const e of b.events) {
        const userId = e.userId ?? b.senderId;
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
    result.events = batches.reduce((n, b) => n + b.events.length, 0);

    await trx.raw(LOCK_SESSIONS, [JSON.stringify([...sessions.keys()])]);
    await trx.raw(INSERT_EVENTS, [JSON.stringify(batches.map((b) => ({ t: b.tenantId, s: b.sessionId, u: b.senderId, r: b.receivedAt, e: b.events })))]);
    await trx.raw(UPDATE_SESSIONS, [JSON.stringify([...sessions.values()])]);
    await trx.raw(UPSERT_PARTICIPANTS, [JSON.stringify([...steps.values()]), JSON.stringify([...participants.values()])]);
    return result;
  });
}

async function rows<T>(trx: Knex.Transaction, sql: string, data: object[]): Promise<T[]> {
  const res = (await trx.raw(sql, [JSON.stringify(data)])) as { rows: T[] };
  return res.rows;
}
