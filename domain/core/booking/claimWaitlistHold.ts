import { Appointment } from '../../../entities/core/booking';
import { notFound } from '../../../lib/errors';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import type { TenantContext } from '../../context';
import { notify, type Note } from '../../notifications/notify';
import { composeMail, dispatchMails } from '../../platform/mail';
import { emitEvent } from '../../webhooks/emitEvent';
import { appointmentData } from '../../webhooks/payloads';
import { findOrCreateCustomer } from '../crm/findOrCreateCustomer';
import { appointmentNote } from './appointmentNotes';
import { bookingReference } from './bookingReference';
import type { Store } from './openStore';
import { lockEntryByToken } from './store/waitlist';
import { withCatalogue, type StoreBooking } from './storeBooking';
import { holdClaimed, holdExpired, localWhen } from './waitlist';

export interface ClaimedHold extends StoreBooking {
  /** The booking's manage token: given once here and in the confirmation mail, stored hashed. */
  manageToken: string;
}

/**
 * The visitor claims the slot held for them through the mailed token (no account): in one transaction, with the
 * place locked (the clock's expiry skips it meanwhile), the held appointment becomes `booked` for the customer
 * (found by e-mail or created), with a manage token and the booking's confirmation mail, as an online booking
 * commits. 404 for an unknown token; 409 `hold_claimed` once claimed; 409 `hold_expired` once it ended
 * (expired, declined, left, released by the business) or past its expiry, even before the clock's sweep.
 */
export async function claimWaitlistHold(store: Store, token: string): Promise<ClaimedHold> {
  const { services } = store.ctx;
  const manageToken = newOpaqueToken();
  const notes: Note<'core'>[] = [];
  const { appointment, mail } = await store.ctx.em.transactional(async (em) => {
    const tx: TenantContext = { ...store.ctx, em };
    const entry = await lockEntryByToken(em, 'hold', hashToken(token));
    if (!entry) throw notFound('Hold');
    if (entry.status === 'booked') throw holdClaimed();
    if (entry.status !== 'offered' || !entry.holdExpiresAt || entry.holdExpiresAt.getTime() <= Date.now())
      throw holdExpired();
    const appointment = await em.findOne(Appointment, { id: entry.holdAppointmentId! });
    if (!appointment || appointment.status !== 'held') throw holdExpired();
    const customer = await findOrCreateCustomer(
      tx,
      { name: entry.name, email: entry.email, phone: entry.phone ?? undefined },
      notes,
    );
    appointment.status = 'booked';
    appointment.customerId = customer.id;
    appointment.manageTokenHash = hashToken(manageToken);
    appointment.updatedAt = new Date();
    entry.status = 'booked';
    entry.endedAt = new Date();
    emitEvent(em, tx.tenantId, 'appointment.booked', appointmentData(appointment));
    const mail = composeMail(em, services, {
      to: entry.email,
      tenantId: tx.tenantId,
      template: 'booking_confirmation',
      data: {
        business: store.business.name,
        service: (await withCatalogue(em, appointment)).service.name,
        when: localWhen(appointment.startAt, store.business),
        reference: bookingReference(appointment.id),
        slug: store.business.publicSlug!,
        token: manageToken,
      },
    });
    await em.flush();
    notes.push(appointmentNote(tx, appointment, 'appointment.booked', { source: 'waitlist' }));
    return { appointment, mail };
  });
  await notify(services, 'core', notes);
  await dispatchMails(services, [mail]);
  return { ...(await withCatalogue(store.ctx.em, appointment)), manageToken };
}
