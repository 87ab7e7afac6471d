import type { NotificationEvent } from '../notifications/events';
import { notify } from '../notifications/notify';
import type { Services } from '../services';

/** Tells the hub about a committed knowledge change (best effort, see domain/notifications). */
export function notifyKnowledge(
  services: Services,
  tenantId: string,
  event: NotificationEvent<'knowledge'>,
  subject: { spaceId: string; articleId?: string | null },
  data: Record<string, unknown> = {},
): Promise<void> {
  return notify(services, 'knowledge', [
    { event, tenantId, subject: { spaceId: subject.spaceId, articleId: subject.articleId ?? null }, data },
  ]);
}
