import type { BookingService, Staff } from '../../../entities/core/booking';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { employeesAvailability, type Availability, type Interval } from '../../hr/availability';
import { getBusiness } from '../org/getBusiness';
import {
  busySpans,
  checkRange,
  earliestStart,
  freeSlotStarts,
  localCalendar,
  weeklyIntervals,
  type BusySpans,
  type LocalCalendar,
  type Range,
} from './slots';
import { applyDateOverrides, capCheck, capWindow, horizonEnd } from './bookingRules';
import { expandBusy } from './recurrence';
import { busyEdges, liveStarts, recurringBusy } from './store/busy';
import { activeStaffFor } from './store/catalogue';

export interface Slot {
  start: Date;
  end: Date;
  /** Staff members free for this slot, in the order asked. */
  staffIds: string[];
}

/** What availability reads of a service and of a staff member (entities and lean rows alike). */
export type SlotService = Pick<
  BookingService,
  'id' | 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'minNoticeMinutes' | 'maxAdvanceDays'
>;
export type SlotStaff = Pick<
  Staff,
  'id' | 'userId' | 'employeeId' | 'weeklyHours' | 'dateOverrides' | 'maxPerDay' | 'maxPerWeek'
>;

export interface AvailabilityProps {
  service: SlotService;
  /** Staff to consider: the service's active staff when absent. */
  staff?: SlotStaff[];
  from: Date;
  to: Date;
  now?: Date;
  /** An appointment whose own time counts as free (rescheduling it). */
  ignoreAppointmentId?: string;
  /** The business's time zone when the caller already holds it (the storefront does): saves reading the business. */
  timeZone?: string;
}

/**
 * When each staff member works in the range: their HR availability when linked to an employee (read for the
 * whole team at once), otherwise their own weekly hours in the business's zone. 404 for a linked employee that
 * no longer exists, as the HR read answers.
 */
async function workingIntervals(
  ctx: TenantContext,
  staff: SlotStaff[],
  range: Range,
  zone: string,
  calendar: LocalCalendar,
): Promise<Map<string, Interval[]>> {
  const linked = staff.flatMap((s) => (s.employeeId ? [s.employeeId] : []));
  const hr = linked.length ? await employeesAvailability(ctx, linked, range) : new Map<string, Availability>();
  return new Map(
    staff.map((s) => {
      if (!s.employeeId)
        return [
          s.id,
          applyDateOverrides(weeklyIntervals(s.weeklyHours, zone, range, calendar), s.dateOverrides, calendar, range),
        ];
      const found = hr.get(s.employeeId);
      if (!found) throw notFound('Employee');
      return [s.id, applyDateOverrides(found.intervals, s.dateOverrides, calendar, range)];
    }),
  );
}

/**
 * What keeps staff busy in a range (widened by `margin` each side): their live appointments' blocked ranges
 * (buffers included) and busy calendar events (their own, or their user's), merged per staff member.
 */
async function busyByStaff(
  ctx: TenantContext,
  staff: SlotStaff[],
  range: Range,
  zone: string,
  margin = 0,
  ignoreAppointmentId?: string,
): Promise<Map<string, BusySpans>> {
  const ids = staff.map((s) => s.id);
  const flat = new Map<string, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return new Map();
  const from = new Date(range.from.getTime() - margin);
  const to = new Date(range.to.getTime() + margin);
  const userIds = staff.flatMap((s) => (s.userId ? [s.userId] : []));
  const [rows, recurring] = await Promise.all([
    busyEdges(ctx.em, ctx.tenantId, ids, userIds, from, to, ignoreAppointmentId),
    recurringBusy(ctx.em, ctx.tenantId, ids, userIds, from, to),
  ]);
  const byUser = new Map<string, string[]>();
  for (const s of staff) if (s.userId) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s.id]);
  const add = (staffId: string | null, ownerId: string | null, edges: number[]) => {
    for (const id of staffId ? [staffId] : (byUser.get(ownerId!) ?? [])) {
      const list = flat.get(id);
      if (list) for (const edge of edges) list.push(edge);
    }
  };
  for (const { staffId, ownerId, edges } of rows) add(staffId, ownerId, edges);
  // Recurring events (own and external) block each of their occurrences in the range.
  for (const { staffId, ownerId, ical } of recurring)
    add(
      staffId,
      ownerId,
      expandBusy(ical, zone, from, to).flatMap((p) => [p.start.getTime(), p.end.getTime()]),
    );
  return new Map([...flat].map(([id, list]) => [id, busySpans(list)]));
}

/**
 * Free slots of a service between `from` and `to`: working time (HR schedules and leave, or own hours, with each
 * staff member's date overrides) minus appointments, busy events and the service's buffers, no sooner than its
 * minimum notice nor past its horizon, for staff under their daily and weekly caps; on a 15-minute grid.
 * Each slot lists the staff free for it, so "any staff" and "this staff member" read the same answer.
 */
export async function serviceAvailability(ctx: TenantContext, props: AvailabilityProps): Promise<Slot[]> {
  checkRange(props.from, props.to);
  const { service } = props;
  const staff = props.staff ?? (await activeStaffFor(ctx, service.id));
  if (!staff.length) return [];
  const now = props.now ?? new Date();
  const to = horizonEnd(props.to, now, service.maxAdvanceDays);
  if (to <= props.from) return [];
  const timeZone = props.timeZone ?? (await getBusiness(ctx)).timeZone;
  const range = { from: props.from, to };
  // The slot grid starts at each working interval's start, so working time is read from the start of the local
  // day before `from`'s (the calendar's first day): an interval running past midnight into `from`'s day keeps its
  // real start, and the grid is the same whatever `from` is (a booking checks its slot with `from` = its start).
  // Slots before `from` are then dropped through notBefore.
  const calendar = localCalendar(timeZone, range);
  const workRange = { from: calendar.days[0].start, to };
  const margin = (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * 60_000;
  const capped = staff.filter((s) => s.maxPerDay || s.maxPerWeek);
  const window = capWindow(range, timeZone);
  const [busy, working, booked] = await Promise.all([
    busyByStaff(ctx, staff, range, timeZone, margin, props.ignoreAppointmentId),
    workingIntervals(ctx, staff, workRange, timeZone, calendar),
    capped.length
      ? liveStarts(
          ctx.em,
          ctx.tenantId,
          capped.map((s) => s.id),
          window.from,
          window.to,
          props.ignoreAppointmentId,
        )
      : new Map<string, number[]>(),
  ]);
  const notBefore = earliestStart(props.from, now, service.minNoticeMinutes);
  const rules = {
    durationMinutes: service.durationMinutes,
    bufferBeforeMinutes: service.bufferBeforeMinutes,
    bufferAfterMinutes: service.bufferAfterMinutes,
    notBefore,
  };
  const byStart = new Map<number, string[]>();
  for (const member of staff) {
    const underCaps = capCheck(booked.get(member.id) ?? [], member, timeZone);
    for (const start of freeSlotStarts(
      working.get(member.id)!,
      busy.get(member.id) ?? { starts: [], ends: [] },
      rules,
    )) {
      if (underCaps && !underCaps(start)) continue;
      const list = byStart.get(start);
      if (list) list.push(member.id);
      else byStart.set(start, [member.id]);
    }
  }
  const length = service.durationMinutes * 60_000;
  return [...byStart.keys()]
    .sort((a, b) => a - b)
    .map((start) => ({ start: new Date(start), end: new Date(start + length), staffIds: byStart.get(start)! }));
}
