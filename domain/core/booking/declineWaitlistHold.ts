import type { Appointment } from '../../../entities/core/booking';
import { Appointment as AppointmentEntity } from '../../../entities/core/booking';
import type { WaitlistEntry } from '../../../entities/core/waitlist';
import { notFound } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import { enqueueStaged } from '../../jobs/stageJob';
import type { Store } from './openStore';
import { findService, findStaff } from './store/catalogue';
import { entryByToken, lockEntryByToken } from './store/waitlist';
import { holdClaimed, holdExpired, releaseHold } from './waitlist';

/** A hold as its visitor sees it: the place, the held slot, its service and staff member. */
export interface WaitlistHold {
  entry: WaitlistEntry;
  appointment: Appointment;
  service: { id: string; name: string };
  staff: { displayName: string };
}

async function present(store: Store, entry: WaitlistEntry): Promise<WaitlistHold> {
  const appointment = entry.holdAppointmentId
    ? await store.ctx.em.findOne(AppointmentEntity, { id: entry.holdAppointmentId })
    : null;
  if (!appointment) throw notFound('Hold');
  const [service, staff] = await Promise.all([
    findService(store.ctx.em, appointment.serviceId),
    findStaff(store.ctx.em, appointment.staffId),
  ]);
  return { entry, appointment, service, staff };
}

/** The hold a hold token names at this store (a read: it changes nothing); 404 for any other token. */
export async function viewWaitlistHold(store: Store, token: string): Promise<WaitlistHold> {
  const entry = await entryByToken(store.ctx.em, 'hold', hashToken(token));
  if (!entry) throw notFound('Hold');
  return present(store, entry);
}

/**
 * The visitor declines the held slot: the place becomes `declined`, the hold is released and the next in line
 * is offered it (a staged offer pass). Again: no change; once claimed 409 `hold_claimed`, once ended otherwise
 * 409 `hold_expired`.
 */
export async function declineWaitlistHold(store: Store, token: string): Promise<WaitlistHold> {
  const { entry, staged } = await store.ctx.em.transactional(async (em) => {
    const entry = await lockEntryByToken(em, 'hold', hashToken(token));
    if (!entry) throw notFound('Hold');
    if (entry.status === 'declined') return { entry, staged: null };
    if (entry.status === 'booked') throw holdClaimed();
    if (entry.status !== 'offered') throw holdExpired();
    const staged = await releaseHold(em, entry);
    entry.status = 'declined';
    entry.endedAt = new Date();
    await em.flush();
    return { entry, staged };
  });
  if (staged) await enqueueStaged(store.ctx.services, [staged]);
  return present(store, entry);
}
