import { DateTime } from 'luxon';
import type { Appointment, Staff } from '../../../entities/core/booking';
import type { Business } from '../../../entities/core/business';
import { AppError } from '../../../lib/errors';
import type { Lean } from '../../../lib/lean';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import type { TenantContext } from '../../context';
import { composeMail, dispatchMails } from '../../platform/mail';
import { notify, type Note } from '../../notifications/notify';
import { findOrCreateCustomer } from '../crm/findOrCreateCustomer';
import { bookingReference } from './bookingReference';
import { checkAnswers } from './bookingRules';
import { insertAppointment, type NewAppointment } from './createAppointment';
import { slotTaken } from './doubleBooking';
import {
  assignmentOf,
  rankRoundRobin,
  ROUND_ROBIN_WINDOW_DAYS,
  type Assignment,
  type RecentBookings,
} from './roundRobin';
import { recentBookingsOf } from './store/appointments';
import type { Store } from './openStore';
import type { StoreBooking } from './storeBooking';
import { freeSlotAt, offeredService, offeredStaff } from './storeOffer';

export interface PublicBookingProps {
  name: string;
  email: string;
  phone?: string | null;
  serviceId: string;
  staffId?: string;
  start: Date;
  /** Answers to the service's questions (400 on `answers` unless they satisfy them). */
  answers?: Record<string, string>;
}

export interface PublicBooking extends StoreBooking {
  reference: string;
  /** How its staff member was chosen: the one named, or round robin among those free. */
  assignment: Assignment;
  /** The cancel/reschedule token: given once here and in the confirmation mail, stored hashed. */
  manageToken: string;
}

type BookableStaff = Lean<Staff> | Staff;

/**
 * An anonymous booking: the slot must be one the availability route offers; when no staff member is named, round
 * robin ranks those free (roundRobin.ts) and the first takes it (the next one when a concurrent booking won the
 * race). The customer (found by e-mail or
 * created), the appointment and its confirmation mail (with the manage link) commit in one transaction: a refused
 * booking leaves no customer behind, and an answered one always has its mail. The hub and the mail queue hear
 * of it once committed. The service and staff are read once, and answered with the booking (its view names them).
 */
export async function bookOnline(store: Store, props: PublicBookingProps): Promise<PublicBooking> {
  const { services } = store.ctx;
  const service = await offeredService(store, props.serviceId);
  const answers = checkAnswers(service.questions, props.answers);
  const candidates = await offeredStaff(store, service, props.staffId);
  const slot = await freeSlotAt(store, service, candidates, props.start);
  const free = slot.staffIds.map((id) => candidates.find((s) => s.id === id)!);
  const recent = props.staffId ? null : await recentBookings(store, service.id, free);
  const ranked = recent ? rankRoundRobin(free, recent) : free;
  const manageToken = newOpaqueToken();
  const notes: Note<'core'>[] = [];
  const { appointment, staff, mail } = await store.ctx.em.transactional(async (em) => {
    const tx: TenantContext = { ...store.ctx, em };
    const customer = await findOrCreateCustomer(
      tx,
      { name: props.name, email: props.email, phone: props.phone ?? undefined },
      notes,
    );
    const booked = await firstFreeStaff(
      tx,
      ranked,
      recent,
      {
        service,
        start: props.start,
        customerId: customer.id,
        attendee: { name: props.name, email: props.email, phone: props.phone },
        answers,
        source: 'storefront',
        manageTokenHash: hashToken(manageToken),
      },
      notes,
    );
    const a = booked.appointment;
    const data = {
      business: store.business.name,
      service: service.name,
      when: localWhen(a.startAt, store.business),
      reference: bookingReference(a.id),
      slug: store.business.publicSlug!,
      token: manageToken,
    };
    return {
      ...booked,
      mail: composeMail(em, services, {
        to: a.attendeeEmail!,
        tenantId: tx.tenantId,
        template: 'booking_confirmation',
        data,
      }),
    };
  });
  await notify(services, 'core', notes);
  await dispatchMails(services, [mail]);
  const assignment = appointment.assignment!;
  return { appointment, service, staff, assignment, reference: bookingReference(appointment.id), manageToken };
}

/** Round robin's counts of the free staff (none to rank when only one is free). */
async function recentBookings(
  store: Store,
  serviceId: string,
  free: BookableStaff[],
): Promise<Map<string, RecentBookings>> {
  if (free.length < 2) return new Map<string, RecentBookings>();
  const since = new Date(Date.now() - ROUND_ROBIN_WINDOW_DAYS * 86_400_000);
  const ids = free.map((s) => s.id);
  return recentBookingsOf(store.ctx.services.orm, store.ctx.tenantId, serviceId, ids, since);
}

/**
 * Books the first of `staff` still free, each attempt in a savepoint (a refused insert aborts only its own), with
 * how it was chosen (`recent`: round robin's counts; null: the one named); 409 `slot_taken` when none is.
 */
async function firstFreeStaff(
  tx: TenantContext,
  staff: BookableStaff[],
  recent: Map<string, RecentBookings> | null,
  props: Omit<NewAppointment, 'staff'>,
  notes: Note<'core'>[],
): Promise<{ appointment: Appointment; staff: BookableStaff }> {
  for (const member of staff) {
    try {
      const assignment = assignmentOf(member, staff, recent);
      const appointment = await tx.em.transactional((em) =>
        insertAppointment({ ...tx, em }, { ...props, staff: member, assignment }, notes),
      );
      return { appointment, staff: member };
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'slot_taken')) throw err;
    }
  }
  throw slotTaken();
}

const localWhen = (at: Date, business: Pick<Business, 'timeZone' | 'locale'>) =>
  DateTime.fromJSDate(at, { zone: business.timeZone })
    .setLocale(business.locale)
    .toLocaleString(DateTime.DATETIME_FULL);
