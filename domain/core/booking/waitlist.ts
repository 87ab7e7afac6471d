import { DateTime } from 'luxon';
import { newId } from '../../../entities/base';
import { Appointment } from '../../../entities/core/booking';
import type { Business } from '../../../entities/core/business';
import type { WaitlistEntry } from '../../../entities/core/waitlist';
import { addDays, localInstant, todayIn } from '../../../lib/calendar';
import type { Em } from '../../../lib/db';
import { conflict } from '../../../lib/errors';
import { bookingWaitlistQueue } from '../../../queues/booking';
import { stageJob } from '../../jobs/stageJob';
import { anyoneWaiting } from './store/waitlist';

/** Shared helpers of the storefront waitlist (entities/core/waitlist.ts). */

export const holdExpired = () => conflict('hold_expired', 'This hold has ended; the slot went back to the waitlist');
export const holdClaimed = () => conflict('hold_claimed', 'This hold was already claimed: see the confirmation mail');

/** Where a local day starts and ends in the business zone. */
export const dayBounds = (day: string, zone: string) => ({
  from: localInstant(day, '00:00', zone),
  to: localInstant(addDays(day, 1), '00:00', zone),
});

/** The local day of an instant in the business zone. */
export const localDayOf = (at: Date, zone: string) => todayIn(zone, at);

/** A local time as mails show it. */
export const localWhen = (at: Date, business: Pick<Business, 'timeZone' | 'locale'>) =>
  DateTime.fromJSDate(at, { zone: business.timeZone })
    .setLocale(business.locale)
    .toLocaleString(DateTime.DATETIME_FULL);

/**
 * Stages an offer pass for the local day of `at` (or `day`, when known) (it commits with the change that freed
 * the slot).
 */
export const stageWaitlistOffer = (em: Em, tenantId: string, serviceId: string, at: Date, day?: string) =>
  stageJob(
    em,
    bookingWaitlistQueue,
    { tenantId, serviceId, at: at.toISOString(), ...(day ? { day } : {}) },
    `waitlist-offer.${newId()}`,
  );

/**
 * A slot of `serviceId` at `at` freed up (a cancellation, a reschedule): stages an offer pass when someone waits
 * for a day around it (one indexed read; the pass finds the local day in the business zone).
 */
export async function stageFreedSlot(em: Em, tenantId: string, serviceId: string, at: Date) {
  const utcDay = at.toISOString().slice(0, 10);
  if (!(await anyoneWaiting(em, tenantId, serviceId, addDays(utcDay, -1), addDays(utcDay, 1)))) return null;
  return stageWaitlistOffer(em, tenantId, serviceId, at);
}

/**
 * Ends an offered entry's hold (declined, left): the held appointment is cancelled (its slot frees) and an offer
 * pass is staged for the next in line, all in the caller's transaction.
 */
export async function releaseHold(em: Em, entry: WaitlistEntry) {
  if (!entry.holdAppointmentId) return null;
  const hold = await em.findOne(Appointment, { id: entry.holdAppointmentId });
  if (!hold || hold.status !== 'held') return null;
  hold.status = 'cancelled';
  hold.cancelledAt = new Date();
  hold.updatedAt = new Date();
  return stageWaitlistOffer(em, entry.tenantId, entry.serviceId, hold.startAt);
}
