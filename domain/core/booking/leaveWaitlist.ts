import { notFound } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import { enqueueStaged } from '../../jobs/stageJob';
import type { Store } from './openStore';
import { findService } from './store/catalogue';
import { entryByToken, lockEntryByToken } from './store/waitlist';
import { releaseHold } from './waitlist';
import type { WaitlistPlace } from './joinWaitlist';

/** The place a leave token names at this store (404 for any other token). */
export async function viewWaitlistPlace(store: Store, token: string): Promise<WaitlistPlace> {
  const entry = await entryByToken(store.ctx.em, 'leave', hashToken(token));
  if (!entry) throw notFound('Waitlist place');
  return { entry, service: await findService(store.ctx.em, entry.serviceId) };
}

/**
 * The visitor leaves through the mailed link: a waiting place becomes `left`; an offered one too, its hold
 * released (the slot goes to the next in line). A place that already ended is answered unchanged.
 */
export async function leaveWaitlist(store: Store, token: string): Promise<WaitlistPlace> {
  const { entry, staged } = await store.ctx.em.transactional(async (em) => {
    const entry = await lockEntryByToken(em, 'leave', hashToken(token));
    if (!entry) throw notFound('Waitlist place');
    if (entry.status !== 'waiting' && entry.status !== 'offered') return { entry, staged: null };
    const staged = entry.status === 'offered' ? await releaseHold(em, entry) : null;
    entry.status = 'left';
    entry.endedAt = new Date();
    await em.flush();
    return { entry, staged };
  });
  if (staged) await enqueueStaged(store.ctx.services, [staged]);
  return { entry, service: await findService(store.ctx.em, entry.serviceId) };
}
