import { audit } from '../platform/audit';
import type { Services } from '../services';
import { trialsEndedBy } from './store';

const BATCH = 500;

/**
 * The clock's every-minute sweep: trials past their end go back to `active`, and each organisation's cached
 * entitlements are invalidated. (Gating already stopped at the exact end: cached entitlements expire at
 * `validUntil`; this sweep settles the status.) Idempotent: a second run finds nothing.
 */
export async function endExpiredTrials(services: Services, now = new Date()): Promise<string[]> {
  const ended: string[] = [];
  for (;;) {
    const em = services.orm.em.fork();
    const subs = await trialsEndedBy(em, now, BATCH);
    for (const sub of subs) {
      sub.status = 'active';
      audit(em, {
        action: 'billing.trial_ended',
        tenantId: sub.tenantId,
        targetType: 'subscription',
        targetId: sub.id,
        data: { endedAt: sub.trialEndsAt!.toISOString() },
      });
    }
    await em.flush();
    for (const sub of subs) await services.entitlements.invalidate(sub.tenantId);
    ended.push(...subs.map((s) => s.tenantId));
    if (subs.length < BATCH) return ended;
  }
}
