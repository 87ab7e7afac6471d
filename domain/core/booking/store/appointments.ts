import { isUUID } from 'class-validator';
import { Appointment } from '../../../../entities/core/booking';
import type { Em } from '../../../../lib/db';
import { notFound } from '../../../../lib/errors';
import { keysetAfter, keysetTimeKey, lean, preparedRead, type Lean, type LeanScope } from '../../../../lib/lean';
import type { Orm } from '../../../../lib/db';
import type { RecentBookings } from '../roundRobin';

/** Statements of appointments (booking_appointments). */

export async function findAppointment(em: Em, id: string): Promise<Appointment> {
  const found = isUUID(id) ? await em.findOne(Appointment, { id }) : null;
  if (!found) throw notFound('Appointment');
  return found;
}

/** The appointment a manage token's hash names, if any. */
export const appointmentByTokenHash = (em: Em, manageTokenHash: string): Promise<Appointment | null> =>
  em.findOne(Appointment, { manageTokenHash });

/** Most bookings a visitor's list shows. */
export const VISITOR_MAX_BOOKINGS = 100;

/** Bookings made with an attendee address, the latest start first. */
export const appointmentsOfAttendee = (em: Em, email: string): Promise<Appointment[]> =>
  em.find(
    Appointment,
    { attendeeEmail: email },
    { orderBy: { startAt: 'desc', id: 'desc' }, limit: VISITOR_MAX_BOOKINGS },
  );

/** How many appointments (any status) a service or a staff member has. */
export async function countAppointmentsOf(
  em: Em,
  tenantId: string,
  of: { serviceId: string } | { staffId: string },
): Promise<number> {
  const [column, id] = 'serviceId' in of ? ['service_id', of.serviceId] : ['staff_id', of.staffId];
  const rows = await em
    .getConnection()
    .execute<{ n: number }[]>(
      `select count(*)::int as n from booking_appointments where tenant_id = ? and ${column} = ?`,
      [tenantId, id],
    );
  return rows[0].n;
}

/** What an appointment is shown with (BookingAppointmentView): every column but the tenant, the manage token's hash and the reminder mark. */
export const appointmentColumns = [
  'id',
  'serviceId',
  'staffId',
  'customerId',
  'startAt',
  'endAt',
  'blockedFrom',
  'blockedUntil',
  'status',
  'partySize',
  'source',
  'attendeeName',
  'attendeeEmail',
  'attendeePhone',
  'notes',
  'answers',
  'assignment',
  'cancelledAt',
  'createdAt',
  'updatedAt',
] as const;
export type AppointmentRow = Pick<Lean<Appointment>, (typeof appointmentColumns)[number]>;

// Lean statements (docs/database-path.md) of the GET routes; the writes read with the em (findAppointment).
const appointmentById = lean(Appointment, { columns: appointmentColumns, where: 'id = $1' });
// One round trip: the page starts after the cursor's position (start to the microsecond $6, id $7; both null on
// the first page) by (start, id), an index range on (tenant_id, start_at). The cursor names no row: a deleted or
// moved last item does not move the next page.
const appointmentsPage = lean(Appointment, {
  columns: appointmentColumns,
  extra: { startKey: keysetTimeKey('booking_appointments', 'start_at') },
  where: `($1::timestamptz is null or start_at >= $1) and ($2::timestamptz is null or start_at < $2) and ($3::uuid is null or staff_id = $3)
    and ($4::uuid is null or customer_id = $4) and ($5::text[] is null or status = any($5))
    and ${keysetAfter('booking_appointments', 'start_at', '$6::timestamptz', '$7::uuid', "'-infinity'::timestamptz")}`,
  orderBy: 'start_at asc, id asc',
  limitParam: '$8',
});

/** An appointment of the organisation as shown, or 404 (a malformed id included). */
export const appointmentRow = (scope: LeanScope, id: string): Promise<AppointmentRow> =>
  appointmentById.byId('Appointment', scope, id);

export interface AppointmentFilter {
  from: Date | null;
  to: Date | null;
  staffId: string | null;
  customerId: string | null;
  status: string[] | null;
}

/** Up to `limit` appointments matching `filter` after the position (start key, id), by start then id. */
export const appointmentsAfter = (
  scope: LeanScope,
  filter: AppointmentFilter,
  after: [string | null, string | null],
  limit: number,
) =>
  appointmentsPage.all(
    scope,
    filter.from,
    filter.to,
    filter.staffId,
    filter.customerId,
    filter.status,
    after[0],
    after[1],
    limit,
  );

/** A customer's appointments with their service's name, latest start first, before a (start, id) position. */
export async function appointmentsOfCustomer(
  em: Em,
  tenantId: string,
  customerId: string,
  query: { before: { at: Date; id: string }; from?: Date | null; limit: number },
): Promise<{ appointment: Appointment; serviceName: string }[]> {
  const params: unknown[] = [tenantId, customerId, query.before.at, query.before.id];
  let range = '';
  if (query.from) {
    range = ' and a.start_at >= ?';
    params.push(query.from);
  }
  params.push(query.limit);
  const rows = await em.execute<(Record<string, unknown> & { service_name: string })[]>(
    `select a.*, s.name as service_name from booking_appointments a join booking_services s on s.id = a.service_id
     where a.tenant_id = ? and a.customer_id = ? and (a.start_at, a.id) < (?, ?::uuid)${range} order by a.start_at desc, a.id desc limit ?`,
    params,
  );
  return rows.map((row) => ({ appointment: em.map(Appointment, row), serviceName: row.service_name }));
}

/** Live appointments of staff members whose blocked range overlaps [from, to) (their staff and blocked range only). */
export const blockedRanges = (
  em: Em,
  staffIds: string[],
  from: Date,
  to: Date,
): Promise<Pick<Appointment, 'staffId' | 'blockedFrom' | 'blockedUntil'>[]> =>
  em.find(
    Appointment,
    { staffId: { $in: staffIds }, status: { $ne: 'cancelled' }, blockedFrom: { $lt: to }, blockedUntil: { $gt: from } },
    { fields: ['staffId', 'blockedFrom', 'blockedUntil'] },
  );

/** Live appointments of staff members overlapping [from, to), by start (at most `limit`). */
export const liveAppointmentsOf = (
  em: Em,
  staffIds: string[],
  from: Date,
  to: Date,
  limit: number,
): Promise<Appointment[]> =>
  em.find(
    Appointment,
    { staffId: { $in: staffIds }, status: { $ne: 'cancelled' }, startAt: { $lt: to }, endAt: { $gt: from } },
    { orderBy: { startAt: 'asc', id: 'asc' }, limit },
  );

// [tenantId, serviceId, staffIds, since]: an aggregate (preparedRead, the tenant bound in the text), on the
// (tenant_id, staff_id, start_at) index: each candidate's live bookings of the service starting since `since`.
const recentBookingsStatement = preparedRead<{ staff_id: string; count: string; last_booked_at: Date }>(
  `select staff_id, count(*) as count, max(created_at) as last_booked_at from booking_appointments where tenant_id = $1 and staff_id = any($3::uuid[]) and start_at >= $4 and service_id = $2 and status <> 'cancelled' group by staff_id`,
);

/** Round robin's counts (roundRobin.ts): the live bookings of a service per staff member since `since`. */
export async function recentBookingsOf(
  orm: Orm,
  tenantId: string,
  serviceId: string,
  staffIds: string[],
  since: Date,
): Promise<Map<string, RecentBookings>> {
  const rows = await recentBookingsStatement(orm, [tenantId, serviceId, staffIds, since]);
  return new Map(rows.map((r) => [r.staff_id, { count: Number(r.count), lastBookedAt: new Date(r.last_booked_at) }]));
}
