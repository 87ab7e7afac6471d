import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { WaitlistEntry } from '../../../entities/core/waitlist';
import { addDays, todayIn } from '../../../lib/calendar';
import { conflict, invalidField } from '../../../lib/errors';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { composeMail, dispatchMails } from '../../platform/mail';
import { serviceAvailability } from './availability';
import type { Store } from './openStore';
import { activeStaffFor } from './store/catalogue';
import { offeredService } from './storeOffer';
import { dayBounds } from './waitlist';

export interface JoinWaitlistProps {
  serviceId: string;
  /** The local day (business time zone), YYYY-MM-DD. */
  day: string;
  name: string;
  email: string;
  phone?: string | null;
}

export interface WaitlistPlace {
  entry: WaitlistEntry;
  service: { id: string; name: string };
}

/**
 * A visitor joins the waitlist of a full day of an active service: the day is today or later, within the
 * service's booking horizon, and has no free slot left (409 `slots_available`: book one instead). One live place
 * per service, day and address, kept by a unique index (409 `already_waiting`). The place and its mail (with the
 * leave link; the token is mailed only, stored hashed) commit together; the mail counts toward the recipient's
 * hourly cap, like a booking's confirmation.
 */
export async function joinWaitlist(store: Store, props: JoinWaitlistProps): Promise<WaitlistPlace> {
  const { services } = store.ctx;
  const zone = store.business.timeZone;
  const service = await offeredService(store, props.serviceId);
  const today = todayIn(zone);
  if (props.day < today) throw invalidField('day', 'must be today or a later day');
  if (service.maxAdvanceDays && props.day > addDays(today, service.maxAdvanceDays))
    throw invalidField('day', `is beyond the booking horizon (${service.maxAdvanceDays} days)`);
  const { from, to } = dayBounds(props.day, zone);
  const staff = await activeStaffFor(store.ctx, service.id);
  const now = new Date();
  const slots = await serviceAvailability(store.ctx, {
    service,
    staff,
    from: from.getTime() > now.getTime() ? from : now,
    to,
    timeZone: zone,
  });
  if (slots.length) throw conflict('slots_available', 'This day still has free slots: book one of them');
  const token = newOpaqueToken();
  const email = props.email.trim().toLowerCase();
  try {
    const { entry, mail } = await store.ctx.em.transactional(async (em) => {
      const entry = em.create(WaitlistEntry, {
        tenantId: store.ctx.tenantId,
        serviceId: service.id,
        day: props.day,
        name: props.name.trim(),
        email,
        phone: props.phone?.trim() || null,
        status: 'waiting',
        leaveTokenHash: hashToken(token),
        holdAppointmentId: null,
        holdTokenHash: null,
        holdExpiresAt: null,
        offeredAt: null,
        endedAt: null,
      });
      const mail = composeMail(em, services, {
        to: email,
        tenantId: store.ctx.tenantId,
        template: 'booking_waitlist_joined',
        data: {
          business: store.business.name,
          service: service.name,
          day: props.day,
          slug: store.business.publicSlug!,
          token,
        },
      });
      await em.flush();
      return { entry, mail };
    });
    await dispatchMails(services, [mail]);
    return { entry, service };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('already_waiting', 'This address already waits for this day of the service');
    throw err;
  }
}
