import type { Appointment, AppointmentStatus } from '../../../entities/core/booking';
import { emitEvent } from '../../webhooks/emitEvent';
import { appointmentData } from '../../webhooks/payloads';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { getCustomer } from '../crm/getCustomer';
import { notifyAppointment } from './appointmentNotes';
import { checkMovable, checkPairing, checkStatusMove, placeAt } from './appointmentRules';
import { flushBooking } from './doubleBooking';
import { enqueueStaged } from '../../jobs/stageJob';
import { stageFreedSlot } from './waitlist';
import { findAppointment } from './store/appointments';
import { findService, findStaff } from './store/catalogue';

export interface UpdateAppointmentProps {
  start?: Date;
  staffId?: string;
  serviceId?: string;
  status?: AppointmentStatus;
  customerId?: string | null;
  partySize?: number;
  notes?: string | null;
}

/**
 * Reschedules (start, staff or service: the blocked range is recomputed; 409 `slot_taken` on overlap, the rule of
 * doubleBooking.ts) and moves the status (see STATUS_MOVES). A new time or staff member emits
 * `appointment.rescheduled`, a cancellation `appointment.cancelled`, with the change's flush (none on a 409). The
 * time it frees goes to the waitlist of its day (waitlist.ts: an offer pass staged with the change).
 */
export async function updateAppointment(
  ctx: TenantContext,
  id: string,
  props: UpdateAppointmentProps,
): Promise<Appointment> {
  const appointment = await findAppointment(ctx.em, id);
  const previous = {
    status: appointment.status as AppointmentStatus,
    startAt: appointment.startAt,
    staffId: appointment.staffId,
    serviceId: appointment.serviceId,
  };
  const moves = props.start !== undefined || props.staffId !== undefined || props.serviceId !== undefined;
  if (props.status) checkStatusMove(previous.status, props.status);
  if (moves) checkMovable(previous.status);
  if (moves || props.partySize !== undefined) {
    // The appointment as it will be passes create's rules (a new service, staff member or party size).
    const service = await findService(ctx.em, props.serviceId ?? appointment.serviceId);
    const staff = await findStaff(ctx.em, props.staffId ?? appointment.staffId);
    if (props.staffId && !staff.active) throw invalidField('staffId', 'the staff member is not active');
    checkPairing(
      service,
      staff,
      props.partySize ?? appointment.partySize,
      props.serviceId && !props.staffId ? 'serviceId' : 'staffId',
    );
    if (moves) {
      appointment.serviceId = service.id;
      appointment.staffId = staff.id;
      placeAt(appointment, props.start ?? appointment.startAt, service);
      // A new time deserves its own reminder.
      if (appointment.startAt.getTime() !== previous.startAt.getTime()) appointment.reminderSentAt = null;
    }
  }
  if (props.customerId !== undefined)
    appointment.customerId = props.customerId ? (await getCustomer(ctx, props.customerId)).id : null;
  if (props.partySize !== undefined) appointment.partySize = props.partySize;
  if (props.notes !== undefined) appointment.notes = props.notes;
  if (props.status) {
    appointment.status = props.status;
    if (props.status === 'cancelled' && !appointment.cancelledAt) appointment.cancelledAt = new Date();
  }
  appointment.updatedAt = new Date();
  const moved =
    moves && (previous.startAt.getTime() !== appointment.startAt.getTime() || previous.staffId !== appointment.staffId);
  if (moved) emitEvent(ctx.em, ctx.tenantId, 'appointment.rescheduled', appointmentData(appointment, previous.startAt));
  if (appointment.status === 'cancelled' && previous.status !== 'cancelled')
    emitEvent(ctx.em, ctx.tenantId, 'appointment.cancelled', appointmentData(appointment));
  // The time it held is free again: whoever waits for that day is offered it (an offer pass staged with the change).
  const freed = previous.status !== 'cancelled' && (appointment.status === 'cancelled' || moved);
  const staged = freed ? await stageFreedSlot(ctx.em, ctx.tenantId, previous.serviceId, previous.startAt) : null;
  await flushBooking(ctx.em);
  if (staged) await enqueueStaged(ctx.services, [staged]);
  if (moved) {
    await notifyAppointment(ctx, appointment, 'appointment.rescheduled', {
      previousStartAt: previous.startAt.toISOString(),
    });
  }
  if (appointment.status !== previous.status) {
    const event = appointment.status === 'cancelled' ? 'appointment.cancelled' : 'appointment.status_changed';
    await notifyAppointment(ctx, appointment, event, { from: previous.status, to: appointment.status });
  }
  return appointment;
}
