import type { Services } from '../services';
import { dayOf, missField } from './analytics';
import { countSearchMiss } from './store/stats';

/** Counts a search of a space that found nothing (analytics.ts); best effort: a Redis failure is only logged. */
export async function recordSearchMiss(
  services: Services,
  tenantId: string,
  spaceId: string,
  query: string,
): Promise<void> {
  try {
    await countSearchMiss(services, missField(tenantId, spaceId, dayOf(new Date()), query));
  } catch (err) {
    services.logger.debug({ err: (err as Error).message }, 'knowledge search miss not counted');
  }
}
