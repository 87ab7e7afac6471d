import { Appointment } from '../../../entities/core/booking';
import type { MailMessage } from '../../../entities/platform/mail';
import { todayIn } from '../../../lib/calendar';
import { AppError } from '../../../lib/errors';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import type { WaitlistOfferJob } from '../../../queues/booking';
import { tenantContext, type TenantContext } from '../../context';
import { composeMail, dispatchMails } from '../../platform/mail';
import type { Services } from '../../services';
import { getBusiness } from '../org/getBusiness';
import { placeAt } from './appointmentRules';
import { serviceAvailability, type Slot } from './availability';
import { flushBooking } from './doubleBooking';
import { activeService, activeStaffFor } from './store/catalogue';
import { closeWaitingOfDay, endReleasedOffers, lockNextWaiting } from './store/waitlist';
import { dayBounds, localDayOf, localWhen } from './waitlist';

/** Holds one pass may make (a day has at most a few dozen slots; the bound keeps a pass finite whatever races). */
const MAX_HOLDS_PER_PASS = 100;

/**
 * Offers the free slots of a service's local day (the day of `at` in the business zone) to its waitlist, one hold
 * per free slot, in queue order. A pass first ends the offers whose hold someone else cancelled; a passed day
 * closes its waiting places instead; a store no longer published, or a service no longer offered, offers nothing
 * (the places keep waiting). Returns how many holds it made.
 */
export async function offerWaitlist(services: Services, job: WaitlistOfferJob): Promise<number> {
  const ctx = tenantContext(services, job.tenantId);
  const business = await getBusiness(ctx);
  const day = job.day ?? localDayOf(new Date(job.at), business.timeZone);
  await endReleasedOffers(ctx.em, ctx.tenantId, job.serviceId, day);
  if (day < todayIn(business.timeZone)) {
    await closeWaitingOfDay(ctx.em, ctx.tenantId, job.serviceId, day);
    return 0;
  }
  if (!business.publicSlug || !business.publicProfile.published) return 0;
  const service = await activeService(ctx, job.serviceId).catch((err: unknown) => {
    if (err instanceof AppError && err.status === 404) return null;
    throw err;
  });
  if (!service) return 0;
  const staff = await activeStaffFor(ctx, service.id);
  const { from, to } = dayBounds(day, business.timeZone);
  let made = 0;
  for (let i = 0; i < MAX_HOLDS_PER_PASS; i++) {
    const now = new Date();
    if (now.getTime() >= to.getTime()) break;
    const slots = await serviceAvailability(ctx, {
      service,
      staff,
      from: from.getTime() > now.getTime() ? from : now,
      to,
      timeZone: business.timeZone,
    });
    if (!slots.length) break;
    const outcome = await holdSlot(ctx, { business, service, day, slot: slots[0] });
    if (outcome === 'nobody') break;
    if (outcome === 'taken') continue;
    await dispatchMails(services, [outcome]);
    made++;
  }
  return made;
}

interface HoldProps {
  business: Awaited<ReturnType<typeof getBusiness>>;
  service: Parameters<typeof placeAt>[2] & { id: string; name: string };
  day: string;
  slot: Slot;
}

/**
 * One hold, in one transaction: the first waiting place (locked; places other passes hold are skipped), a `held`
 * appointment for its visitor at the slot with its first free staff member (the no-overlap constraint refuses it
 * when the slot was taken meanwhile: nothing commits, and the pass looks again), the place `offered` with its
 * token's hash and expiry, and the offer's mail.
 */
async function holdSlot(ctx: TenantContext, props: HoldProps): Promise<MailMessage | 'nobody' | 'taken'> {
  const { services } = ctx;
  const minutes = services.config.BOOKING_WAITLIST_HOLD_MINUTES;
  const token = newOpaqueToken();
  try {
    return await ctx.em.transactional(async (em) => {
      const entry = await lockNextWaiting(em, props.service.id, props.day);
      if (!entry) return 'nobody' as const;
      const hold = em.create(Appointment, {
        tenantId: ctx.tenantId,
        serviceId: props.service.id,
        staffId: props.slot.staffIds[0],
        customerId: null,
        startAt: props.slot.start,
        endAt: props.slot.start,
        blockedFrom: props.slot.start,
        blockedUntil: props.slot.start,
        status: 'held',
        partySize: 1,
        source: 'storefront',
        attendeeName: entry.name,
        attendeeEmail: entry.email,
        attendeePhone: entry.phone ?? null,
        notes: null,
        answers: null,
        assignment: null,
        manageTokenHash: null,
        reminderSentAt: null,
        cancelledAt: null,
      });
      placeAt(hold, props.slot.start, props.service);
      const now = new Date();
      entry.status = 'offered';
      entry.holdAppointmentId = hold.id;
      entry.holdTokenHash = hashToken(token);
      entry.holdExpiresAt = new Date(now.getTime() + minutes * 60_000);
      entry.offeredAt = now;
      const mail = composeMail(em, services, {
        to: entry.email,
        tenantId: ctx.tenantId,
        template: 'booking_waitlist_offer',
        data: {
          business: props.business.name,
          service: props.service.name,
          when: localWhen(props.slot.start, props.business),
          minutes,
          slug: props.business.publicSlug!,
          token,
        },
      });
      await flushBooking(em);
      return mail;
    });
  } catch (err) {
    if (err instanceof AppError && err.code === 'slot_taken') return 'taken';
    throw err;
  }
}
