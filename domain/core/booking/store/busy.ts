import { SERVICE_BOUNDS } from '../../../../entities/core/booking';
import { CalendarEvent } from '../../../../entities/core/calendar';
import { HrEmployee } from '../../../../entities/hr/employee';
import { HrLeaveRequest } from '../../../../entities/hr/leave';
import type { Em } from '../../../../lib/db';

/** Reads of what keeps staff busy: appointments and busy calendar events as spans, busy events, granted leave. */

/** Service limits (minutes) that bound how far an appointment's blocked range reaches from its start. */
const MAX_DURATION_AND_AFTER_MINUTES = SERVICE_BOUNDS.maxDurationMinutes + SERVICE_BOUNDS.maxBufferMinutes;
const MAX_BEFORE_MINUTES = SERVICE_BOUNDS.maxBufferMinutes;

/** The integers of a space-separated list ("-12 34 ..."), read in place: a month of a team is thousands of them. */
function parseEdges(text: string): number[] {
  const out: number[] = [];
  let value = 0;
  let sign = 1;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if (c === 32) {
      out.push(sign * value);
      value = 0;
      sign = 1;
    } else if (c === 45) sign = -1;
    else value = value * 10 + (c - 48);
  }
  return out;
}

/** One staff member (or, for events without one, a member) and the busy edges [start, end, ...] of one kind. */
export interface BusyEdges {
  staffId: string | null;
  ownerId: string | null;
  edges: number[];
}

/**
 * Live appointments' blocked ranges (buffers included) of `staffIds` and busy calendar events (on them, or owned
 * by `userIds` without a staff member) overlapping [from, to), except appointment `ignoreAppointmentId`. One
 * indexed statement for all staff at once, read as plain epoch milliseconds (no entity hydration nor timestamp
 * parsing), one row per staff member (or user) and kind with its ranges joined in one string: a month of a busy
 * team is thousands of ranges, and a row each was most of the database driver's work. The start bounds let the
 * (tenant, staff, start) index narrow the appointments. Epoch milliseconds through float8 (date_part, rounded by
 * the int8 cast): exact for the millisecond instants the app writes, and half the database's time of numeric
 * `extract` over a month of appointments.
 */
export async function busyEdges(
  em: Em,
  tenantId: string,
  staffIds: string[],
  userIds: string[],
  from: Date,
  to: Date,
  ignoreAppointmentId?: string,
): Promise<BusyEdges[]> {
  const rows = await em.execute<{ staff_id: string | null; owner_id: string | null; spans: string }[]>(
    `select staff_id, null as owner_id, string_agg((date_part('epoch', blocked_from) * 1000)::int8 || ' ' || (date_part('epoch', blocked_until) * 1000)::int8, ' ') as spans
       from booking_appointments
       where tenant_id = ? and staff_id in (?) and status <> 'cancelled' and blocked_from < ? and blocked_until > ? and start_at < ? and start_at > ?${ignoreAppointmentId ? ' and id <> ?' : ''}
       group by staff_id
     union all
     select staff_id, case when staff_id is null then owner_id end, string_agg((date_part('epoch', start_at) * 1000)::int8 || ' ' || (date_part('epoch', end_at) * 1000)::int8, ' ')
       from calendar_events
       where tenant_id = ? and busy and not recurring and start_at < ? and end_at > ? and (staff_id in (?)${userIds.length ? ' or (staff_id is null and owner_id in (?))' : ''})
       group by 1, 2${
         userIds.length
           ? `
     union all
     select null, owner_id, string_agg((date_part('epoch', start_at) * 1000)::int8 || ' ' || (date_part('epoch', end_at) * 1000)::int8, ' ')
       from calendar_external_events
       where tenant_id = ? and busy and not recurring and owner_id in (?) and start_at < ? and end_at > ?
       group by owner_id`
           : ''
       }`,
    [
      ...[
        tenantId,
        staffIds,
        to,
        from,
        new Date(to.getTime() + MAX_BEFORE_MINUTES * 60_000),
        new Date(from.getTime() - MAX_DURATION_AND_AFTER_MINUTES * 60_000),
        ...(ignoreAppointmentId ? [ignoreAppointmentId] : []),
      ],
      ...[tenantId, to, from, staffIds, ...(userIds.length ? [userIds] : [])],
      ...(userIds.length ? [tenantId, userIds, to, from] : []),
    ],
  );
  return rows.map((row) => ({ staffId: row.staff_id, ownerId: row.owner_id, edges: parseEdges(row.spans) }));
}

/** A recurring object that may block time: on a staff member, or owned by a member (an own or an external event). */
export interface RecurringBusy {
  staffId: string | null;
  ownerId: string | null;
  ical: string;
}

/**
 * Busy recurring objects whose rule may have an occurrence in [from, to): members' own events (on `staffIds`, or
 * owned by `userIds` without a staff member) and their external calendars' events (owned by `userIds`). Their
 * occurrences are expanded by the caller (domain/core/booking/recurrence.ts).
 */
export async function recurringBusy(
  em: Em,
  tenantId: string,
  staffIds: string[],
  userIds: string[],
  from: Date,
  to: Date,
): Promise<RecurringBusy[]> {
  const rows = await em.execute<{ staff_id: string | null; owner_id: string | null; ical: string }[]>(
    `select staff_id, case when staff_id is null then owner_id end as owner_id, ical from calendar_events
       where tenant_id = ? and busy and recurring and start_at < ? and (recurs_until is null or recurs_until > ?) and (staff_id in (?)${userIds.length ? ' or (staff_id is null and owner_id in (?))' : ''})${
         userIds.length
           ? `
     union all
     select null, owner_id, ical from calendar_external_events
       where tenant_id = ? and busy and recurring and owner_id in (?) and start_at < ? and (recurs_until is null or recurs_until > ?)`
           : ''
       }`,
    [
      ...[tenantId, to, from, staffIds, ...(userIds.length ? [userIds] : [])],
      ...(userIds.length ? [tenantId, userIds, to, from] : []),
    ],
  );
  return rows.map((r) => ({ staffId: r.staff_id, ownerId: r.owner_id, ical: r.ical }));
}

/** Busy calendar events overlapping [from, to) on staff members or owned by members (their owner, staff and times). */
export const busyEvents = (
  em: Em,
  staffIds: string[],
  userIds: string[],
  from: Date,
  to: Date,
): Promise<Pick<CalendarEvent, 'staffId' | 'ownerId' | 'startAt' | 'endAt'>[]> =>
  em.find(
    CalendarEvent,
    {
      busy: true,
      startAt: { $lt: to },
      endAt: { $gt: from },
      $or: [{ staffId: { $in: staffIds } }, { ownerId: { $in: userIds } }],
    },
    { fields: ['staffId', 'ownerId', 'startAt', 'endAt'] },
  );

/** HR employees' time zones and their granted leave touching the dates [first, last]. */
export async function grantedLeave(
  em: Em,
  employeeIds: string[],
  first: string,
  last: string,
): Promise<{ zones: Map<string, string>; leave: HrLeaveRequest[] }> {
  const [employees, leave] = await Promise.all([
    em.find(HrEmployee, { id: { $in: employeeIds } }, { fields: ['id', 'timeZone'] }),
    em.find(HrLeaveRequest, {
      employeeId: { $in: employeeIds },
      status: 'granted',
      startDate: { $lte: last },
      endDate: { $gte: first },
    }),
  ]);
  return { zones: new Map(employees.map((e) => [e.id, e.timeZone])), leave };
}

/**
 * Starts (epoch milliseconds) of the live appointments of `staffIds` starting in [from, to), except
 * `ignoreAppointmentId`: what the daily and weekly caps count. On the (tenant, staff, start) index.
 */
export async function liveStarts(
  em: Em,
  tenantId: string,
  staffIds: string[],
  from: Date,
  to: Date,
  ignoreAppointmentId?: string,
): Promise<Map<string, number[]>> {
  const rows = await em.execute<{ staff_id: string; t: string }[]>(
    `select staff_id, (date_part('epoch', start_at) * 1000)::int8 as t from booking_appointments
       where tenant_id = ? and staff_id in (?) and status <> 'cancelled' and start_at >= ? and start_at < ?${ignoreAppointmentId ? ' and id <> ?' : ''}`,
    [tenantId, staffIds, from, to, ...(ignoreAppointmentId ? [ignoreAppointmentId] : [])],
  );
  const out = new Map<string, number[]>();
  for (const r of rows) out.set(r.staff_id, [...(out.get(r.staff_id) ?? []), Number(r.t)]);
  return out;
}
