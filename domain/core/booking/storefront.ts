import { DateTime } from 'luxon';
import { Appointment, BookingService, ServiceGroup, Staff } from '../../../entities/core/booking';
import type { Business } from '../../../entities/core/business';
import { AppError, conflict, invalidField, notFound } from '../../../lib/errors';
import { lean, type Lean } from '../../../lib/lean';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { tenantContext, type TenantContext } from '../../context';
import { checkInstantRange } from '../../../lib/calendar';
import { composeMail, dispatchMails } from '../../platform/mail';
import { notify, type Note } from '../../notifications/notify';
import type { Services } from '../../services';
import { findOrCreateCustomer } from '../crm/findOrCreateCustomer';
import { isModuleActive } from '../org/activeModules';
import { findBusinessBySlug } from '../org/findBusinessBySlug';
import { findAppointment, insertAppointment, isLive, slotTaken, updateAppointment, type CreateAppointmentProps } from './appointments';
import { serviceAvailability, staffFor, type Slot, type SlotService, type SlotStaff } from './availability';
import { findStaff } from './catalogue';

/** A booking's short reference for the visitor (derived from its id, shown in mails and answers). */
export const bookingReference = (id: string) => id.replace(/-/g, '').slice(-8).toUpperCase();

/** An open storefront: its business and a context bound to its organisation (the tenant id stays inside). */
export interface Store {
  business: Lean<Business>;
  ctx: TenantContext;
}

/**
 * The storefront of a public slug: 404 unless a business has it, its public profile is published and the core
 * module is active for its organisation (suspended organisations have none).
 */
export async function openStore(services: Services, slug: string): Promise<Store> {
  const found = await findBusinessBySlug(services, slug);
  if (!found || !found.business.publicProfile.published) throw notFound('Store');
  const entitlements = await services.entitlements.get(found.tenantId);
  if (!isModuleActive(found.business, entitlements, 'core')) throw notFound('Store');
  return { business: found.business, ctx: tenantContext(services, found.tenantId) };
}

/** What the storefront shows: active services (with their groups) and active staff. */
export async function storeCatalogue(store: Store): Promise<{ services: BookingService[]; groups: ServiceGroup[]; staff: Staff[] }> {
  const { em } = store.ctx;
  const services = await em.find(BookingService, { active: true }, { orderBy: { name: 'asc', id: 'asc' }, limit: 500 });
  const groupIds = [...new Set(services.flatMap((s) => (s.groupId ? [s.groupId] : [])))];
  const groups = groupIds.length ? await em.find(ServiceGroup, { id: { $in: groupIds } }, { orderBy: { sortOrder: 'asc', id: 'asc' } }) : [];
  const staff = await em.find(Staff, { active: true }, { orderBy: { displayName: 'asc', id: 'asc' }, limit: 500 });
  return { services, groups, staff };
}

const activeServiceById = lean(BookingService, { where: 'id = $1 and active' });

/** An active service of the store (a lean read: availability and booking only read it); 404 otherwise. */
async function bookableService(store: Store, serviceId: string): Promise<Lean<BookingService>> {
  return activeServiceById.byId('Service', store.ctx, serviceId);
}

async function candidates(store: Store, service: SlotService, staffId?: string): Promise<SlotStaff[]> {
  if (!staffId) return staffFor(store.ctx, service.id);
  const staff = await findStaff(store.ctx.em, staffId);
  if (!staff.active || (staff.serviceIds.length && !staff.serviceIds.includes(service.id))) throw notFound('Staff member');
  return [staff];
}

/** Free slots of an active service on the storefront, for one staff member or any. */
export async function storeAvailability(store: Store, props: { serviceId: string; from: Date; to: Date; staffId?: string }): Promise<Slot[]> {
  const service = await bookableService(store, props.serviceId);
  const staff = await candidates(store, service, props.staffId);
  return serviceAvailability(store.ctx, { service, staff, from: props.from, to: props.to, timeZone: store.business.timeZone });
}

/** The free slot starting exactly at `start` (its free staff), or 409 `slot_taken`. */
async function freeSlotAt(store: Store, service: SlotService, staff: SlotStaff[], start: Date, ignoreAppointmentId?: string): Promise<Slot> {
  const end = new Date(start.getTime() + service.durationMinutes * 60_000);
  checkInstantRange({ from: start, to: end }, { from: 'start', to: 'start' });
  // The same computation as the availability route (whose grid does not depend on `from`).
  const slots = await serviceAvailability(store.ctx, { service, staff, from: start, to: end, ignoreAppointmentId, timeZone: store.business.timeZone });
  const slot = slots.find((s) => s.start.getTime() === start.getTime());
  if (!slot) throw slotTaken();
  return slot;
}

export interface PublicBookingProps {
  name: string;
  email: string;
  phone?: string | null;
  serviceId: string;
  staffId?: string;
  start: Date;
}

export interface PublicBooking {
  appointment: Appointment;
  reference: string;
  /** The cancel/reschedule token: given once here and in the confirmation mail, stored hashed. */
  manageToken: string;
}

/**
 * An anonymous booking: the slot must be one the availability route offers; the first free staff member takes
 * it when none is named (the next one when a concurrent booking won the race). The customer (found by e-mail or
 * created), the appointment and its confirmation mail (with the manage link) commit in one transaction: a refused
 * booking leaves no customer behind, and an answered one always has its mail. The hub and the mail queue hear
 * of it once committed.
 */
export async function bookOnline(store: Store, props: PublicBookingProps): Promise<PublicBooking> {
  const { services } = store.ctx;
  const service = await bookableService(store, props.serviceId);
  const slot = await freeSlotAt(store, service, await candidates(store, service, props.staffId), props.start);
  const manageToken = newOpaqueToken();
  const notes: Note<'core'>[] = [];
  const { appointment, mail } = await store.ctx.em.transactional(async (em) => {
    const tx: TenantContext = { ...store.ctx, em };
    const customer = await findOrCreateCustomer(tx, { name: props.name, email: props.email, phone: props.phone ?? undefined }, notes);
    const booked = await firstFreeStaff(tx, slot.staffIds, {
      serviceId: service.id,
      start: props.start,
      customerId: customer.id,
      attendee: { name: props.name, email: props.email, phone: props.phone },
      source: 'storefront',
      manageTokenHash: hashToken(manageToken),
    }, notes);
    const data = { business: store.business.name, service: service.name, when: localWhen(booked.startAt, store.business), reference: bookingReference(booked.id), slug: store.business.publicSlug!, token: manageToken };
    return { appointment: booked, mail: composeMail(em, services, { to: booked.attendeeEmail!, tenantId: tx.tenantId, template: 'booking_confirmation', data }) };
  });
  await notify(services, 'core', notes);
  await dispatchMails(services, [mail]);
  return { appointment, reference: bookingReference(appointment.id), manageToken };
}

/** Books the first of `staffIds` still free, each attempt in a savepoint (a refused insert aborts only its own); 409 `slot_taken` when none is. */
async function firstFreeStaff(tx: TenantContext, staffIds: string[], props: Omit<CreateAppointmentProps, 'staffId'>, notes: Note<'core'>[]): Promise<Appointment> {
  for (const staffId of staffIds) {
    try {
      return await tx.em.transactional((em) => insertAppointment({ ...tx, em }, { ...props, staffId }, notes));
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'slot_taken')) throw err;
    }
  }
  throw slotTaken();
}

const localWhen = (at: Date, business: Pick<Business, 'timeZone' | 'locale'>) => DateTime.fromJSDate(at, { zone: business.timeZone }).setLocale(business.locale).toLocaleString(DateTime.DATETIME_FULL);

/** The booking a manage token names at this store; 404 for any other token. */
export async function bookingByToken(store: Store, token: string): Promise<Appointment> {
  const found = await store.ctx.em.findOne(Appointment, { manageTokenHash: hashToken(token) });
  if (!found) throw notFound('Booking');
  return found;
}

function checkOpen(appointment: Appointment): void {
  if (!isLive(appointment.status as 'booked')) throw conflict('invalid_transition', `The booking is ${appointment.status}`);
  if (appointment.startAt.getTime() <= Date.now()) throw conflict('booking_started', 'The appointment has started; contact the business');
}

/** The visitor cancels through the manage link (again: no change). */
export async function cancelByToken(store: Store, token: string): Promise<Appointment> {
  const appointment = await bookingByToken(store, token);
  if (appointment.status === 'cancelled') return appointment;
  checkOpen(appointment);
  return updateAppointment(store.ctx, appointment.id, { status: 'cancelled' });
}

/**
 * The visitor moves the booking to another free slot of the same staff member and service, both still bookable
 * as for a new booking (an inactive service or staff member: 404).
 */
export async function rescheduleByToken(store: Store, token: string, start: Date): Promise<Appointment> {
  const appointment = await bookingByToken(store, token);
  checkOpen(appointment);
  const service = await bookableService(store, appointment.serviceId);
  const staff = await candidates(store, service, appointment.staffId);
  if (start.getTime() <= Date.now()) throw invalidField('start', 'must be in the future');
  await freeSlotAt(store, service, staff, start, appointment.id);
  await updateAppointment(store.ctx, appointment.id, { start });
  return findAppointment(store.ctx.em, appointment.id);
}
