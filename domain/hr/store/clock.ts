import { HrClockCorrection, HrClockEvent, type CorrectionAction, type PunchKind } from '../../../entities/hr/clock';
import type { Em } from '../../../lib/db';
import { lean, rawDate } from '../../../lib/lean';

/** The clock statements: punches (immutable) and their corrections. */

// Lean statements (docs/database-path.md): every combination of filters is one prepared statement, and the
// corrections of a whole page come in one more.
/** $1 employee, $2 at or after, $3 before, $4 cursor, $5 limit; in the order recorded. */
export const clockEventsPage = lean(HrClockEvent, {
  where: `($1::uuid is null or employee_id = $1) and ($2::timestamptz is null or at >= $2) and ($3::timestamptz is null or at < $3)
    and ($4::uuid is null or id > $4)`,
  orderBy: 'id asc',
  limitParam: '$5',
});
/** $1 clock event ids: their corrections, oldest first. */
export const correctionsOf = lean(HrClockCorrection, { where: 'clock_event_id = any($1::uuid[])', orderBy: 'id asc' });

/** A clock event as read for timelines (plain rows: scans read tens of thousands). */
export interface PunchRow {
  id: string;
  employeeId: string;
  kind: PunchKind;
  at: Date;
}

export interface CorrectionRow {
  id: string;
  clockEventId: string;
  action: CorrectionAction;
  at: Date | null;
  kind: PunchKind | null;
}

/** A PostgreSQL array literal (uuids need no quoting): one bound parameter whatever the batch size. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** The clock events of employees recorded at `from` <= at < `to`. */
export async function punchRows(em: Em, employeeIds: string[], from: Date, to: Date): Promise<PunchRow[]> {
  const rows = await em.execute<{ id: string; employee_id: string; kind: PunchKind; at: Date | string }[]>(
    'select id, employee_id, kind, at from hr_clock_events where employee_id = any(?::uuid[]) and at >= ? and at < ?',
    [uuidArray(employeeIds), from, to],
  );
  return rows.map((r) => ({ id: r.id, employeeId: r.employee_id, kind: r.kind, at: rawDate(r.at) }));
}

/** The corrections of the events punchRows reads with the same arguments. */
export async function correctionRows(em: Em, employeeIds: string[], from: Date, to: Date): Promise<CorrectionRow[]> {
  const ids = uuidArray(employeeIds);
  const rows = await em.execute<
    { id: string; clock_event_id: string; action: CorrectionAction; at: Date | string | null; kind: PunchKind | null }[]
  >(
    'select c.id, c.clock_event_id, c.action, c.at, c.kind from hr_clock_corrections c where c.employee_id = any(?::uuid[]) and c.clock_event_id in (select id from hr_clock_events where employee_id = any(?::uuid[]) and at >= ? and at < ?)',
    [ids, ids, from, to],
  );
  return rows.map((r) => ({
    id: r.id,
    clockEventId: r.clock_event_id,
    action: r.action,
    at: r.at ? rawDate(r.at) : null,
    kind: r.kind,
  }));
}
