import { isUUID } from 'class-validator';
import { Appointment, type AppointmentStatus, type BookingService, type Staff } from '../../../entities/core/booking';
import type { Em } from '../../../lib/db';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import { checkStorable, isUtcTimestamp } from '../../../lib/calendar';
import { keysetAfter, keysetTimeKey, lean, type Lean } from '../../../lib/lean';
import { decodeCursor, toKeysetPage, type Page } from '../../../lib/pagination';
import type { TenantContext } from '../../context';
import { findOrCreateCustomer } from '../crm/findOrCreateCustomer';
import { getCustomer } from '../crm/getCustomer';
import { notify, type Note } from '../../notifications/notify';
import { findService, findStaff } from './catalogue';

/**
 * Status moves (anything else: 409 `invalid_transition`; asking for the current status changes nothing):
 *
 *   from \ to   confirmed  completed  no_show  cancelled
 *   booked          yes        -         -        yes
 *   confirmed       -          yes       yes      yes
 *   cancelled, completed, no_show: final
 *
 * Cancelling keeps the appointment (history, timeline); its time becomes free again.
 */
export const STATUS_MOVES: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  booked: ['confirmed', 'cancelled'],
  confirmed: ['completed', 'no_show', 'cancelled'],
  cancelled: [],
  completed: [],
  no_show: [],
};

export const isLive = (status: AppointmentStatus) => status === 'booked' || status === 'confirmed';

/** PostgreSQL's exclusion_violation, as the driver reports it (MikroORM wraps the pg error and keeps its code). */
export function isSlotTaken(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23P01' || e?.cause?.code === '23P01';
}

export const slotTaken = () => conflict('slot_taken', 'The staff member already has an appointment at this time');

/** Flushes, turning the no-overlap constraint's refusal into 409 `slot_taken`. */
export async function flushBooking(em: Em): Promise<void> {
  try {
    await em.flush();
  } catch (err) {
    if (isSlotTaken(err)) {
      em.clear();
      throw slotTaken();
    }
    throw err;
  }
}

export async function findAppointment(em: Em, id: string): Promise<Appointment> {
  const found = isUUID(id) ? await em.findOne(Appointment, { id }) : null;
  if (!found) throw notFound('Appointment');
  return found;
}

/** Sets start, end and the blocked range (buffers included) from a start and the service. */
export function placeAt(appointment: Pick<Appointment, 'startAt' | 'endAt' | 'blockedFrom' | 'blockedUntil'>, start: Date, service: BookingService): void {
  const minute = 60_000;
  appointment.startAt = start;
  appointment.endAt = new Date(start.getTime() + service.durationMinutes * minute);
  appointment.blockedFrom = new Date(start.getTime() - service.bufferBeforeMinutes * minute);
  appointment.blockedUntil = new Date(appointment.endAt.getTime() + service.bufferAfterMinutes * minute);
  checkStorable('start', 'the appointment and its buffers', appointment.blockedFrom, appointment.blockedUntil);
}

/**
 * What any appointment must respect, at creation and after a change: the staff member performs the service
 * (400 on `staffField`, the field the caller changed) and the party fits the service's capacity.
 */
function checkPairing(service: Pick<BookingService, 'id' | 'capacity'>, staff: Pick<Staff, 'serviceIds'>, partySize: number, staffField = 'staffId'): void {
  if (staff.serviceIds.length && !staff.serviceIds.includes(service.id)) throw invalidField(staffField, 'the staff member does not perform this service');
  if (partySize > service.capacity) throw invalidField('partySize', `the service takes at most ${service.capacity}`);
}

export interface Attendee {
  name: string;
  email: string;
  phone?: string | null;
}

export interface CreateAppointmentProps {
  serviceId: string;
  staffId: string;
  start: Date;
  /** An existing customer; otherwise the attendee's e-mail finds or creates one. */
  customerId?: string | null;
  attendee?: Attendee;
  partySize?: number;
  notes?: string | null;
  source?: 'staff' | 'storefront';
  manageTokenHash?: string | null;
}

/**
 * Books a service with a staff member (any time: members may book outside working hours; the storefront
 * checks free slots first). Overlaps are refused by the database: 409 `slot_taken`, and then the attendee's
 * customer is not created either (one transaction); the hub hears of what committed.
 */
export async function createAppointment(ctx: TenantContext, props: CreateAppointmentProps): Promise<Appointment> {
  const notes: Note<'core'>[] = [];
  const appointment = await ctx.em.transactional((em) => insertAppointment({ ...ctx, em }, props, notes));
  await notify(ctx.services, 'core', notes);
  return appointment;
}

/**
 * createAppointment's writes, in the caller's transaction (`ctx.em`): its hub notes (the appointment, a customer
 * created for the attendee) are added to `notes`, for the caller to send once it committed.
 */
export async function insertAppointment(ctx: TenantContext, props: CreateAppointmentProps, notes: Note<'core'>[]): Promise<Appointment> {
  const service = await findService(ctx.em, props.serviceId);
  const staff = await findStaff(ctx.em, props.staffId);
  if (!staff.active) throw invalidField('staffId', 'the staff member is not active');
  checkPairing(service, staff, props.partySize ?? 1);
  let customerId: string | null = null;
  if (props.customerId) customerId = (await getCustomer(ctx, props.customerId)).id;
  else if (props.attendee) customerId = (await findOrCreateCustomer(ctx, { name: props.attendee.name, email: props.attendee.email, phone: props.attendee.phone ?? undefined }, notes)).id;
  const appointment = ctx.em.create(Appointment, {
    tenantId: ctx.tenantId,
    serviceId: service.id,
    staffId: staff.id,
    customerId,
    startAt: props.start,
    endAt: props.start,
    blockedFrom: props.start,
    blockedUntil: props.start,
    status: 'booked',
    partySize: props.partySize ?? 1,
    source: props.source ?? 'staff',
    attendeeName: props.attendee?.name.trim() ?? null,
    attendeeEmail: props.attendee?.email.trim().toLowerCase() ?? null,
    attendeePhone: props.attendee?.phone?.trim() || null,
    notes: props.notes ?? null,
    manageTokenHash: props.manageTokenHash ?? null,
    reminderSentAt: null,
    cancelledAt: null,
  });
  placeAt(appointment, props.start, service);
  await flushBooking(ctx.em);
  notes.push(appointmentNote(ctx, appointment, 'appointment.booked', { source: appointment.source }));
  return appointment;
}

export interface UpdateAppointmentProps {
  start?: Date;
  staffId?: string;
  serviceId?: string;
  status?: AppointmentStatus;
  customerId?: string | null;
  partySize?: number;
  notes?: string | null;
}

/** Reschedules (start, staff or service: the blocked range is recomputed; 409 `slot_taken` on overlap) and moves the status (see STATUS_MOVES). */
export async function updateAppointment(ctx: TenantContext, id: string, props: UpdateAppointmentProps): Promise<Appointment> {
  const appointment = await findAppointment(ctx.em, id);
  const previous = { status: appointment.status, startAt: appointment.startAt, staffId: appointment.staffId };
  const moves = props.start !== undefined || props.staffId !== undefined || props.serviceId !== undefined;
  if (props.status && props.status !== appointment.status && !STATUS_MOVES[appointment.status as AppointmentStatus].includes(props.status)) {
    throw conflict('invalid_transition', `An appointment ${appointment.status} cannot become ${props.status}`);
  }
  if (moves && !isLive(appointment.status as AppointmentStatus)) throw conflict('invalid_transition', `An appointment ${appointment.status} cannot be rescheduled`);
  if (moves || props.partySize !== undefined) {
    // The appointment as it will be passes create's rules (a new service, staff member or party size).
    const service = await findService(ctx.em, props.serviceId ?? appointment.serviceId);
    const staff = await findStaff(ctx.em, props.staffId ?? appointment.staffId);
    if (props.staffId && !staff.active) throw invalidField('staffId', 'the staff member is not active');
    checkPairing(service, staff, props.partySize ?? appointment.partySize, props.serviceId && !props.staffId ? 'serviceId' : 'staffId');
    if (moves) {
      appointment.serviceId = service.id;
      appointment.staffId = staff.id;
      placeAt(appointment, props.start ?? appointment.startAt, service);
      // A new time deserves its own reminder.
      if (appointment.startAt.getTime() !== previous.startAt.getTime()) appointment.reminderSentAt = null;
    }
  }
  if (props.customerId !== undefined) appointment.customerId = props.customerId ? (await getCustomer(ctx, props.customerId)).id : null;
  if (props.partySize !== undefined) appointment.partySize = props.partySize;
  if (props.notes !== undefined) appointment.notes = props.notes;
  if (props.status) {
    appointment.status = props.status;
    if (props.status === 'cancelled' && !appointment.cancelledAt) appointment.cancelledAt = new Date();
  }
  appointment.updatedAt = new Date();
  await flushBooking(ctx.em);
  if (moves && (previous.startAt.getTime() !== appointment.startAt.getTime() || previous.staffId !== appointment.staffId)) {
    await notifyAppointment(ctx, appointment, 'appointment.rescheduled', { previousStartAt: previous.startAt.toISOString() });
  }
  if (appointment.status !== previous.status) {
    const event = appointment.status === 'cancelled' ? 'appointment.cancelled' : 'appointment.status_changed';
    await notifyAppointment(ctx, appointment, event, { from: previous.status, to: appointment.status });
  }
  return appointment;
}

/** DELETE: the appointment becomes cancelled (kept for history); cancelling a cancelled one changes nothing. */
export async function cancelAppointment(ctx: TenantContext, id: string): Promise<Appointment> {
  const appointment = await findAppointment(ctx.em, id);
  if (appointment.status === 'cancelled') return appointment;
  return updateAppointment(ctx, id, { status: 'cancelled' });
}

export interface ListAppointmentsProps {
  from?: Date;
  to?: Date;
  staffId?: string;
  customerId?: string;
  status?: AppointmentStatus[];
  limit: number;
  cursor?: string;
}

/** What an appointment is shown with (BookingAppointmentView): every column but the tenant, the manage token's hash and the reminder mark. */
export const appointmentColumns = ['id', 'serviceId', 'staffId', 'customerId', 'startAt', 'endAt', 'blockedFrom', 'blockedUntil', 'status', 'partySize', 'source', 'attendeeName', 'attendeeEmail', 'attendeePhone', 'notes', 'cancelledAt', 'createdAt', 'updatedAt'] as const;
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

/** GET /api/appointments/{id}: an appointment of the organisation, or 404 (a malformed id included). */
export async function getAppointment(ctx: TenantContext, id: string): Promise<AppointmentRow> {
  return appointmentById.byId('Appointment', ctx, id);
}

/**
 * Appointments by start time (then id); the cursor (opaque) holds the last item's start and id; an unreadable one
 * is 400 `validation_failed` on `cursor`.
 */
export async function listAppointments(ctx: TenantContext, props: ListAppointmentsProps): Promise<Page<AppointmentRow>> {
  const [startKey, id] = props.cursor ? decodeCursor(props.cursor, isUtcTimestamp) : [null, null];
  const rows = await appointmentsPage.all(ctx, props.from ?? null, props.to ?? null, props.staffId || null, props.customerId || null, props.status?.length ? props.status : null, startKey, id, props.limit + 1);
  return toKeysetPage(rows, props.limit, (row) => String(row.startKey));
}

type AppointmentEvent = 'appointment.booked' | 'appointment.rescheduled' | 'appointment.status_changed' | 'appointment.cancelled';

const appointmentNote = (ctx: TenantContext, a: Appointment, event: AppointmentEvent, data: Record<string, unknown>): Note<'core'> => ({
  event,
  tenantId: ctx.tenantId,
  subject: { appointmentId: a.id, customerId: a.customerId ?? null },
  data: { serviceId: a.serviceId, staffId: a.staffId, startAt: a.startAt.toISOString(), status: a.status, ...data },
});

async function notifyAppointment(ctx: TenantContext, a: Appointment, event: AppointmentEvent, data: Record<string, unknown>): Promise<void> {
  await notify(ctx.services, 'core', [appointmentNote(ctx, a, event, data)]);
}
