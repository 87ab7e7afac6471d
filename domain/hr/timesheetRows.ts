import { DateTime } from 'luxon';
import { invalidField } from '../../lib/errors';
import type { TenantContext } from '../context';
import { findEmployee } from './lookup';
import { dateOf, DAY_MS, dayNumber, localDay, localIso } from '../../lib/calendar';
import { employeesBatch } from './store/employees';
import { loadPunches, workIntervals } from './timeline';

/** One line of a timesheet: a work interval (start and end local, with offset), or a punch without its pair. */
export interface TimesheetRow {
  employeeId: string;
  lastName: string;
  firstName: string;
  /** Local date the interval starts on. */
  date: string;
  start: string;
  /** Empty for a missing exit. */
  end: string;
  minutes: number;
  corrected: boolean;
  /** '' or missing_exit / missing_entry. */
  anomaly: string;
}

export const timesheetColumns: (keyof TimesheetRow)[] = [
  'employeeId',
  'lastName',
  'firstName',
  'date',
  'start',
  'end',
  'minutes',
  'corrected',
  'anomaly',
];

/** Longest period of one export. */
export const MAX_TIMESHEET_DAYS = 366;
/** Employees read at once. */
const BATCH = 200;

/** Checks the request before the answer starts (a problem can still be answered then). */
export async function checkTimesheetRequest(
  ctx: TenantContext,
  props: { employeeId?: string; from: string; to: string },
): Promise<void> {
  if (props.to < props.from) throw invalidField('to', 'must not be before from');
  if ((Date.parse(props.to) - Date.parse(props.from)) / DAY_MS >= MAX_TIMESHEET_DAYS)
    throw invalidField('to', `an export covers at most ${MAX_TIMESHEET_DAYS} days`);
  if (props.employeeId) await findEmployee(ctx.em, props.employeeId);
}

/**
 * The timesheet of the local days `from`..`to` (each employee's zone), corrections applied, employee by
 * employee in batches so any number of employees streams in bounded memory.
 */
export async function* timesheetRows(
  ctx: TenantContext,
  props: { employeeId?: string; from: string; to: string },
): AsyncGenerator<TimesheetRow> {
  const first = dayNumber(props.from);
  const last = dayNumber(props.to);
  let cursor: string | undefined;
  for (;;) {
    const employees = await employeesBatch(ctx.em, { employeeId: props.employeeId, after: cursor, limit: BATCH });
    if (!employees.length) return;
    cursor = employees.at(-1)!.id;
    // A day of margin for every zone; rows are kept by their local date.
    const lo = DateTime.fromISO(props.from, { zone: 'utc' }).minus({ days: 1 }).toJSDate();
    const hi = DateTime.fromISO(props.to, { zone: 'utc' }).plus({ days: 2 }).toJSDate();
    const punches = await loadPunches(
      ctx.em,
      employees.map((e) => e.id),
      lo,
      hi,
    );
    for (const e of employees) {
      const zone = e.timeZone;
      const inRange = (d: Date) => {
        const day = localDay(zone, d.getTime());
        return day >= first && day <= last;
      };
      const { intervals, anomalies } = workIntervals(punches.get(e.id) ?? []);
      const lines: TimesheetRow[] = [
        ...intervals
          .filter((i) => inRange(i.start))
          .map((i) => ({ start: i.start, end: i.end as Date | null, corrected: i.corrected, anomaly: '' })),
        ...anomalies
          .filter((a) => inRange(a.at))
          .map((a) => ({ start: a.at, end: null, corrected: false, anomaly: a.problem })),
      ]
        .sort((a, b) => a.start.getTime() - b.start.getTime())
        .map((l) => ({
          employeeId: e.id,
          lastName: e.lastName,
          firstName: e.firstName,
          date: dateOf(localDay(zone, l.start.getTime())),
          start: localIso(zone, l.start.getTime()),
          end: l.end ? localIso(zone, l.end.getTime()) : '',
          minutes: l.end ? Math.round((l.end.getTime() - l.start.getTime()) / 60_000) : 0,
          corrected: l.corrected,
          anomaly: l.anomaly,
        }));
      yield* lines;
    }
    if (props.employeeId || employees.length < BATCH) return;
  }
}
