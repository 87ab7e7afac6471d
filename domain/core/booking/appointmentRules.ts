import type { Appointment, AppointmentStatus, BookingService, Staff } from '../../../entities/core/booking';
import { conflict, invalidField } from '../../../lib/errors';
import { checkStorable } from '../../../lib/calendar';

/**
 * Status moves (anything else: 409 `invalid_transition`; asking for the current status changes nothing):
 *
 *   from \ to   confirmed  completed  no_show  cancelled
 *   booked          yes        -         -        yes
 *   confirmed       -          yes       yes      yes
 *   held            -          -         -        yes    (and booked: only its visitor's claim, claimWaitlistHold.ts)
 *   cancelled, completed, no_show: final
 *
 * `held` is a waitlist hold: it blocks its slot, moves with no one and is booked only through its mailed token.
 * Cancelling keeps the appointment (history, timeline); its time becomes free again.
 */
export const STATUS_MOVES: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  booked: ['confirmed', 'cancelled'],
  confirmed: ['completed', 'no_show', 'cancelled'],
  cancelled: [],
  completed: [],
  no_show: [],
  held: ['cancelled'],
};

export const isLive = (status: AppointmentStatus) => status === 'booked' || status === 'confirmed';

/** 409 `invalid_transition` unless `from` may become `to` (see STATUS_MOVES); the same status is no move. */
export function checkStatusMove(from: AppointmentStatus, to: AppointmentStatus): void {
  if (to !== from && !STATUS_MOVES[from].includes(to))
    throw conflict('invalid_transition', `An appointment ${from} cannot become ${to}`);
}

/** Only a live appointment changes time, staff member or service: 409 `invalid_transition` otherwise. */
export function checkMovable(status: AppointmentStatus): void {
  if (!isLive(status)) throw conflict('invalid_transition', `An appointment ${status} cannot be rescheduled`);
}

const MINUTE = 60_000;

/** Sets start, end and the blocked range (the service's buffers before and after) from a start and the service. */
export function placeAt(
  appointment: Pick<Appointment, 'startAt' | 'endAt' | 'blockedFrom' | 'blockedUntil'>,
  start: Date,
  service: Pick<BookingService, 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes'>,
): void {
  appointment.startAt = start;
  appointment.endAt = new Date(start.getTime() + service.durationMinutes * MINUTE);
  appointment.blockedFrom = new Date(start.getTime() - service.bufferBeforeMinutes * MINUTE);
  appointment.blockedUntil = new Date(appointment.endAt.getTime() + service.bufferAfterMinutes * MINUTE);
  checkStorable('start', 'the appointment and its buffers', appointment.blockedFrom, appointment.blockedUntil);
}

/**
 * What any appointment must respect, at creation and after a change: the staff member performs the service
 * (400 on `staffField`, the field the caller changed) and the party fits the service's capacity.
 */
export function checkPairing(
  service: Pick<BookingService, 'id' | 'capacity'>,
  staff: Pick<Staff, 'serviceIds'>,
  partySize: number,
  staffField = 'staffId',
): void {
  if (staff.serviceIds.length && !staff.serviceIds.includes(service.id))
    throw invalidField(staffField, 'the staff member does not perform this service');
  if (partySize > service.capacity) throw invalidField('partySize', `the service takes at most ${service.capacity}`);
}

/**
 * The visitor's cancellation window: a booking changes through its manage link while it is live and has not
 * started (409 `invalid_transition`, 409 `booking_started`); after that only the business may change it.
 */
export function checkOpenToVisitor(appointment: Pick<Appointment, 'status' | 'startAt'>, now = new Date()): void {
  if (!isLive(appointment.status as AppointmentStatus))
    throw conflict('invalid_transition', `The booking is ${appointment.status}`);
  if (appointment.startAt.getTime() <= now.getTime())
    throw conflict('booking_started', 'The appointment has started; contact the business');
}
