import type { Services } from '../services';
import { dayOf, viewFields } from './analytics';
import { viewBufferOf } from './viewBuffer';

/** Counts a view of a published article by a reader (analytics.ts), in memory until the buffer is written. */
export function recordView(
  services: Services,
  view: { tenantId: string; spaceId: string; articleId: string; reader: string },
): void {
  viewBufferOf(services).add(viewFields(view, dayOf(new Date())), view.reader);
}
