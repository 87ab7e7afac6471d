import {
  Appointment,
  type AppointmentAssignment,
  type BookingService,
  type Staff,
} from '../../../entities/core/booking';
import { emitEvent } from '../../webhooks/emitEvent';
import { appointmentData } from '../../webhooks/payloads';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { findOrCreateCustomer } from '../crm/findOrCreateCustomer';
import { getCustomer } from '../crm/getCustomer';
import { notify, type Note } from '../../notifications/notify';
import { appointmentNote } from './appointmentNotes';
import { checkPairing, placeAt } from './appointmentRules';
import { flushBooking } from './doubleBooking';
import { findService, findStaff } from './store/catalogue';

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
  /** Answers to the service's questions, already checked (bookingRules.checkAnswers). */
  answers?: Record<string, string> | null;
  source?: 'staff' | 'storefront';
  manageTokenHash?: string | null;
  /** How the staff member was chosen (a storefront booking: roundRobin.ts). */
  assignment?: AppointmentAssignment | null;
}

/** What an appointment is written with of its service and staff member (entities and lean rows alike). */
export type BookedService = Pick<
  BookingService,
  'id' | 'capacity' | 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'
>;
export type BookedStaff = Pick<Staff, 'id' | 'active' | 'serviceIds'>;

/** An appointment to write: its service and staff member already read by the caller. */
export type NewAppointment = Omit<CreateAppointmentProps, 'serviceId' | 'staffId'> & {
  service: BookedService;
  staff: BookedStaff;
};

/**
 * Books a service with a staff member (any time: members may book outside working hours; the storefront
 * checks free slots first). Overlaps are refused by the database (doubleBooking.ts): 409 `slot_taken`, and then
 * the attendee's customer is not created either (one transaction); the hub hears of what committed.
 */
export async function createAppointment(ctx: TenantContext, props: CreateAppointmentProps): Promise<Appointment> {
  const notes: Note<'core'>[] = [];
  const appointment = await ctx.em.transactional(async (em) => {
    const service = await findService(em, props.serviceId);
    const staff = await findStaff(em, props.staffId);
    return insertAppointment({ ...ctx, em }, { ...props, service, staff }, notes);
  });
  await notify(ctx.services, 'core', notes);
  return appointment;
}

/**
 * An appointment's writes, in the caller's transaction (`ctx.em`), with the booking rules every path shares
 * (an active staff member who performs the service, the party within its capacity, no double booking): its hub
 * notes (the appointment, a customer created for the attendee) are added to `notes`, for the caller to send once
 * it committed.
 */
export async function insertAppointment(
  ctx: TenantContext,
  props: NewAppointment,
  notes: Note<'core'>[],
): Promise<Appointment> {
  const { service, staff } = props;
  if (!staff.active) throw invalidField('staffId', 'the staff member is not active');
  checkPairing(service, staff, props.partySize ?? 1);
  let customerId: string | null = null;
  if (props.customerId) customerId = (await getCustomer(ctx, props.customerId)).id;
  else if (props.attendee)
    customerId = (
      await findOrCreateCustomer(
        ctx,
        { name: props.attendee.name, email: props.attendee.email, phone: props.attendee.phone ?? undefined },
        notes,
      )
    ).id;
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
    answers: props.answers ?? null,
    assignment: props.assignment ?? null,
    manageTokenHash: props.manageTokenHash ?? null,
    reminderSentAt: null,
    cancelledAt: null,
  });
  placeAt(appointment, props.start, service);
  // A refused insert (slot_taken) clears the unit of work: its event goes with it.
  emitEvent(ctx.em, ctx.tenantId, 'appointment.booked', appointmentData(appointment));
  await flushBooking(ctx.em);
  notes.push(appointmentNote(ctx, appointment, 'appointment.booked', { source: appointment.source }));
  return appointment;
}
