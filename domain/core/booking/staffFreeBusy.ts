import type { Staff } from '../../../entities/core/booking';
import { DateTime } from 'luxon';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { HALF_DAY_BOUNDARY } from '../../hr/halfDays';
import { getBusiness } from '../org/getBusiness';
import { dateOf, datesBetween, DAY_MS, localInstant } from '../../../lib/calendar';
import { checkRange, type Range } from './slots';
import { blockedRanges } from './store/appointments';
import { busyEvents, grantedLeave } from './store/busy';
import { activeStaff, staffByIds } from './store/catalogue';

export type BusyKind = 'appointment' | 'event' | 'leave';

export interface BusyPeriod {
  start: Date;
  end: Date;
  kind: BusyKind;
}

export interface StaffFreeBusy {
  staff: Staff;
  /** Sorted by start; periods of different kinds may overlap (each says why the time is taken). */
  busy: BusyPeriod[];
}

const clip = (p: BusyPeriod, range: Range): BusyPeriod | null => {
  const start = p.start < range.from ? range.from : p.start;
  const end = p.end > range.to ? range.to : p.end;
  return start < end ? { start, end, kind: p.kind } : null;
};

/** Granted leave of employees as UTC periods: whole local days, or their morning / afternoon half (split at HALF_DAY_BOUNDARY). */
async function leavePeriods(
  ctx: TenantContext,
  employeeIds: string[],
  range: Range,
): Promise<Map<string, BusyPeriod[]>> {
  const out = new Map<string, BusyPeriod[]>();
  if (!employeeIds.length) return out;
  // A day of margin for any zone (checkRange keeps these within years PostgreSQL reads as dates).
  const first = dateOf(Math.floor(range.from.getTime() / DAY_MS) - 1);
  const last = dateOf(Math.floor(range.to.getTime() / DAY_MS) + 1);
  const { zones, leave } = await grantedLeave(ctx.em, employeeIds, first, last);
  for (const l of leave) {
    const zone = zones.get(l.employeeId);
    if (!zone) continue;
    const list = out.get(l.employeeId) ?? [];
    for (const date of datesBetween(l.startDate < first ? first : l.startDate, l.endDate > last ? last : l.endDate)) {
      const from = date === l.startDate && l.startHalf === 'afternoon' ? HALF_DAY_BOUNDARY : '00:00';
      const startAt = localInstant(date, from, zone);
      const endAt =
        date === l.endDate && l.endHalf === 'morning'
          ? localInstant(date, HALF_DAY_BOUNDARY, zone)
          : DateTime.fromISO(date, { zone }).plus({ days: 1 }).toJSDate();
      if (startAt < endAt) list.push({ start: startAt, end: endAt, kind: 'leave' });
    }
    out.set(l.employeeId, list);
  }
  return out;
}

/**
 * When staff members are taken between `from` and `to`: live appointments (their blocked range, buffers
 * included), busy calendar events (on the staff member or owned by their linked member) and granted HR leave
 * of their linked employee. Three queries whatever the number of staff.
 */
async function freeBusy(ctx: TenantContext, staff: Staff[], range: Range): Promise<StaffFreeBusy[]> {
  checkRange(range.from, range.to);
  const ids = staff.map((s) => s.id);
  const userIds = staff.flatMap((s) => (s.userId ? [s.userId] : []));
  const [appointments, events, leave] = await Promise.all([
    blockedRanges(ctx.em, ids, range.from, range.to),
    busyEvents(ctx.em, ids, userIds, range.from, range.to),
    leavePeriods(
      ctx,
      staff.flatMap((s) => (s.employeeId ? [s.employeeId] : [])),
      range,
    ),
  ]);
  return staff.map((s) => {
    const periods: BusyPeriod[] = [];
    for (const a of appointments)
      if (a.staffId === s.id) periods.push({ start: a.blockedFrom, end: a.blockedUntil, kind: 'appointment' });
    for (const e of events)
      if (e.staffId === s.id || (!e.staffId && s.userId && e.ownerId === s.userId))
        periods.push({ start: e.startAt, end: e.endAt, kind: 'event' });
    for (const l of (s.employeeId && leave.get(s.employeeId)) || []) periods.push(l);
    const busy = periods
      .flatMap((p) => clip(p, range) ?? [])
      .sort((a, b) => a.start.getTime() - b.start.getTime() || a.kind.localeCompare(b.kind));
    return { staff: s, busy };
  });
}

interface FreeBusyProps {
  staffIds?: string[];
  from: Date;
  to: Date;
}

/**
 * Free/busy of the named staff members (404 for an unknown one), or of every active one by name, with the
 * business's time zone (the view shows the periods in it).
 */
export async function staffFreeBusy(
  ctx: TenantContext,
  props: FreeBusyProps,
): Promise<{ timeZone: string; staff: StaffFreeBusy[] }> {
  const [staff, business] = await Promise.all([freeBusyOf(ctx, props), getBusiness(ctx)]);
  return { timeZone: business.timeZone, staff };
}

async function freeBusyOf(ctx: TenantContext, props: FreeBusyProps): Promise<StaffFreeBusy[]> {
  checkRange(props.from, props.to);
  let staff: Staff[];
  if (props.staffIds?.length) {
    const ids = [...new Set(props.staffIds)];
    const found = await staffByIds(ctx.em, ids);
    if (found.length !== ids.length) throw notFound('Staff member');
    staff = ids.map((id) => found.find((s) => s.id === id)!);
  } else {
    staff = await activeStaff(ctx.em);
  }
  return freeBusy(ctx, staff, { from: props.from, to: props.to });
}
