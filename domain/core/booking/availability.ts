import { Staff, type BookingService } from '../../../entities/core/booking';
import { invalidField, notFound } from '../../../lib/errors';
import { lean, type Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { employeesAvailability, type Availability, type Interval } from '../../hr/availability';
import { checkInstantRange } from '../../../lib/calendar';
import { getBusiness } from '../org/getBusiness';
import { busySpans, freeSlotStarts, localCalendar, weeklyIntervals, type BusySpans, type LocalCalendar, type Range } from './slots';

/** Longest range one availability read covers. */
export const MAX_AVAILABILITY_DAYS = 62;
/** Range the storefront reads when the caller gives no end: the week a storefront shows. */
export const DEFAULT_AVAILABILITY_DAYS = 7;

export interface Slot {
  start: Date;
  end: Date;
  /** Staff members free for this slot, in the order asked. */
  staffIds: string[];
}

/** What availability reads of a service and of a staff member (entities and lean rows alike). */
export type SlotService = Pick<BookingService, 'id' | 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'minNoticeMinutes'>;
export type SlotStaff = Pick<Staff, 'id' | 'userId' | 'employeeId' | 'weeklyHours'>;

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

export function checkRange(from: Date, to: Date): void {
  if (!(from < to)) throw invalidField('to', 'must be after from');
  if (to.getTime() - from.getTime() > MAX_AVAILABILITY_DAYS * 86_400_000) throw invalidField('to', `the range may cover at most ${MAX_AVAILABILITY_DAYS} days`);
  checkInstantRange({ from, to });
}

const activeStaffOf = lean(Staff, { where: 'active and (cardinality(service_ids) = 0 or $1::uuid = any(service_ids))', orderBy: 'display_name asc, id asc' });

/** Active staff who perform a service (an empty serviceIds list means every service); a lean read. */
export async function staffFor(ctx: TenantContext, serviceId: string): Promise<Lean<Staff>[]> {
  return activeStaffOf.all(ctx, serviceId);
}

/**
 * When each staff member works in the range: their HR availability when linked to an employee (read for the
 * whole team at once), otherwise their own weekly hours in the business's zone. 404 for a linked employee that
 * no longer exists, as the HR read answers.
 */
export async function workingIntervals(ctx: TenantContext, staff: SlotStaff[], range: Range, zone: string, calendar: LocalCalendar): Promise<Map<string, Interval[]>> {
  const linked = staff.flatMap((s) => (s.employeeId ? [s.employeeId] : []));
  const hr = linked.length ? await employeesAvailability(ctx, linked, range) : new Map<string, Availability>();
  return new Map(
    staff.map((s) => {
      if (!s.employeeId) return [s.id, weeklyIntervals(s.weeklyHours, zone, range, calendar)];
      const found = hr.get(s.employeeId);
      if (!found) throw notFound('Employee');
      return [s.id, found.intervals];
    }),
  );
}

/** Service limits (minutes) that bound how far an appointment's blocked range reaches from its start. */
const MAX_DURATION_AND_AFTER_MINUTES = 1440 + 720;
const MAX_BEFORE_MINUTES = 720;

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

/**
 * What keeps staff busy in a range: their live appointments' blocked ranges (buffers included) and busy
 * calendar events (their own, or their user's). One indexed statement for all staff at once, read as plain
 * epoch milliseconds (no entity hydration nor timestamp parsing), one row per staff member (or user) and kind
 * with its ranges joined in one string: a month of a busy team is thousands of ranges, and a row each was most
 * of the database driver's work. The start bounds let the (tenant, staff, start) index narrow the appointments.
 * Epoch milliseconds through float8 (date_part, rounded by the int8 cast): exact for the millisecond instants
 * the app writes, and half the database's time of numeric `extract` over a month of appointments.
 */
export async function busyByStaff(ctx: TenantContext, staff: SlotStaff[], range: Range, margin = 0, ignoreAppointmentId?: string): Promise<Map<string, BusySpans>> {
  const ids = staff.map((s) => s.id);
  const flat = new Map<string, number[]>(ids.map((id) => [id, []]));
  if (!ids.length) return new Map();
  const from = new Date(range.from.getTime() - margin);
  const to = new Date(range.to.getTime() + margin);
  const userIds = staff.flatMap((s) => (s.userId ? [s.userId] : []));
  const rows = await ctx.em.execute<{ staff_id: string | null; owner_id: string | null; spans: string }[]>(
    `select staff_id, null as owner_id, string_agg((date_part('epoch', blocked_from) * 1000)::int8 || ' ' || (date_part('epoch', blocked_until) * 1000)::int8, ' ') as spans
       from booking_appointments
       where tenant_id = ? and staff_id in (?) and status <> 'cancelled' and blocked_from < ? and blocked_until > ? and start_at < ? and start_at > ?${ignoreAppointmentId ? ' and id <> ?' : ''}
       group by staff_id
     union all
     select staff_id, case when staff_id is null then owner_id end, string_agg((date_part('epoch', start_at) * 1000)::int8 || ' ' || (date_part('epoch', end_at) * 1000)::int8, ' ')
       from calendar_events
       where tenant_id = ? and busy and start_at < ? and end_at > ? and (staff_id in (?)${userIds.length ? ' or (staff_id is null and owner_id in (?))' : ''})
       group by 1, 2`,
    [
      ...[ctx.tenantId, ids, to, from, new Date(to.getTime() + MAX_BEFORE_MINUTES * 60_000), new Date(from.getTime() - MAX_DURATION_AND_AFTER_MINUTES * 60_000), ...(ignoreAppointmentId ? [ignoreAppointmentId] : [])],
      ...[ctx.tenantId, to, from, ids, ...(userIds.length ? [userIds] : [])],
    ],
  );
  const byUser = new Map<string, string[]>();
  for (const s of staff) if (s.userId) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s.id]);
  for (const row of rows) {
    const edges = parseEdges(row.spans);
    for (const id of row.staff_id ? [row.staff_id] : (byUser.get(row.owner_id!) ?? [])) {
      const list = flat.get(id);
      if (list) for (const edge of edges) list.push(edge);
    }
  }
  return new Map([...flat].map(([id, list]) => [id, busySpans(list)]));
}

/**
 * Free slots of a service between `from` and `to`: working time (HR schedules and leave, or own hours) minus
 * appointments, busy events and the service's buffers, no sooner than its minimum notice; on a 15-minute grid.
 * Each slot lists the staff free for it, so "any staff" and "this staff member" read the same answer.
 */
export async function serviceAvailability(ctx: TenantContext, props: AvailabilityProps): Promise<Slot[]> {
  checkRange(props.from, props.to);
  const { service } = props;
  const staff = props.staff ?? (await staffFor(ctx, service.id));
  if (!staff.length) return [];
  const timeZone = props.timeZone ?? (await getBusiness(ctx)).timeZone;
  const range = { from: props.from, to: props.to };
  // The slot grid starts at each working interval's start, so working time is read from the start of the local
  // day before `from`'s (the calendar's first day): an interval running past midnight into `from`'s day keeps its
  // real start, and the grid is the same whatever `from` is (a booking checks its slot with `from` = its start).
  // Slots before `from` are then dropped through notBefore.
  const calendar = localCalendar(timeZone, range);
  const workRange = { from: calendar.days[0].start, to: props.to };
  const margin = (service.bufferBeforeMinutes + service.bufferAfterMinutes + service.durationMinutes) * 60_000;
  const [busy, working] = await Promise.all([busyByStaff(ctx, staff, range, margin, props.ignoreAppointmentId), workingIntervals(ctx, staff, workRange, timeZone, calendar)]);
  const notBefore = new Date(Math.max(props.from.getTime(), (props.now ?? new Date()).getTime() + service.minNoticeMinutes * 60_000));
  const rules = { durationMinutes: service.durationMinutes, bufferBeforeMinutes: service.bufferBeforeMinutes, bufferAfterMinutes: service.bufferAfterMinutes, notBefore };
  const byStart = new Map<number, string[]>();
  for (const member of staff) {
    for (const start of freeSlotStarts(working.get(member.id)!, busy.get(member.id) ?? { starts: [], ends: [] }, rules)) {
      const list = byStart.get(start);
      if (list) list.push(member.id);
      else byStart.set(start, [member.id]);
    }
  }
  const length = service.durationMinutes * 60_000;
  return [...byStart.keys()].sort((a, b) => a - b).map((start) => ({ start: new Date(start), end: new Date(start + length), staffIds: byStart.get(start)! }));
}
