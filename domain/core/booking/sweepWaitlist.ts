import type { StagedJob } from '../../../entities/jobs/stagedJob';
import { addDays } from '../../../lib/calendar';
import { enqueueStaged } from '../../jobs/stageJob';
import type { Services } from '../../services';
import { closePassedDays, endExpiredHolds } from './store/waitlist';
import { stageWaitlistOffer } from './waitlist';

/** Holds ended by one statement (the pass runs statements until none is left). */
const BATCH = 200;

/**
 * The clock's pass (every minute): holds past their expiry end (`expired`, their held appointments cancelled)
 * and each day concerned gets an offer pass for the next in line, staged in the same transaction (so a crash
 * loses none); then waiting places of days passed everywhere (before yesterday, UTC) close. A claim in progress
 * keeps its place locked and wins (SKIP LOCKED). `now` is the clock's time (tests pass a later one).
 */
export async function sweepWaitlist(
  services: Services,
  now = new Date(),
): Promise<{ expired: number; closed: number }> {
  let expired = 0;
  for (;;) {
    const staged: StagedJob[] = [];
    const ended = await services.orm.em.fork().transactional(async (em) => {
      const days = await endExpiredHolds(em, now, BATCH);
      for (const d of days) staged.push(stageWaitlistOffer(em, d.tenant_id, d.service_id, now, d.day));
      await em.flush();
      return days.length;
    });
    await enqueueStaged(services, staged);
    expired += ended;
    if (ended === 0) break;
  }
  const closed = await closePassedDays(services.orm.em.fork(), addDays(now.toISOString().slice(0, 10), -1));
  return { expired, closed };
}
