import type { Services } from '../services';
import { dayOf, viewFields } from './analytics';
import { countView } from './store/stats';

/** Counts a view of a published article by a reader (analytics.ts); best effort: a Redis failure is only logged. */
export async function recordView(
  services: Services,
  view: { tenantId: string; spaceId: string; articleId: string; reader: string },
): Promise<void> {
  try {
    await countView(services, viewFields(view, dayOf(new Date())), view.reader);
  } catch (err) {
    services.logger.debug({ err: (err as Error).message }, 'knowledge view not counted');
  }
}
