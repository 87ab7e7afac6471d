import { newId } from '../../entities/base';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import { hubNotificationsQueue, type HubEnvelope, type HubNotification } from '../../queues/notifications';
import type { Services } from '../services';
import { notificationEvents, type NotificationEvent, type NotifyingModule } from './events';

/** What a module tells the hub; `notify` adds the envelope (id, module, occurredAt). */
export interface Note<M extends NotifyingModule> {
  event: NotificationEvent<M>;
  tenantId: string;
  /** Ids of what changed, sent as top-level fields of the envelope (vr: roomId, sessionId, userId). */
  subject?: Record<string, string | null> & { [K in keyof HubEnvelope]?: never };
  data?: Record<string, unknown>;
}

/**
 * The module's hub secret, or null when its notifications are skipped (no HUB_URL, or no
 * `<MODULE>_WEBHOOK_SECRET`). A module in events.ts without its variable in lib/config.ts does not compile.
 */
export function hubSecret(config: Config, module: NotifyingModule): string | null {
  if (!config.HUB_URL) return null;
  return config[`${module.toUpperCase() as Uppercase<NotifyingModule>}_WEBHOOK_SECRET`] || null;
}

/**
 * Tells the real-time hub what happened, best effort: call it after the change committed. The jobs carry
 * the whole notification (the worker only signs and POSTs it). A module whose notifications are skipped
 * enqueues nothing; a failure to enqueue is logged, never surfaced: the hub falls back to polling.
 */
export async function notify<M extends NotifyingModule>(
  services: Services,
  module: M,
  notes: Note<M>[],
): Promise<void> {
  if (!notes.length || !hubSecret(services.config, module)) return;
  const occurredAt = new Date().toISOString();
  const jobs = notes.map(({ event, tenantId, subject, data }) => {
    const id = newId();
    const payload: HubNotification = { id, module, event, occurredAt, tenantId, ...subject, data: data ?? {} };
    return { payload, options: { jobId: id } };
  });
  try {
    await services.queues.addBulk(hubNotificationsQueue, jobs);
  } catch (err) {
    services.logger.warn(
      { err: (err as Error).message, module, events: notes.map((n) => n.event) },
      'hub notifications not enqueued',
    );
  }
}

/**
 * One warning at start when HUB_URL is set but modules that send notifications (those with events in
 * events.ts) have no secret: theirs are skipped.
 */
export function warnSkippedNotifications(config: Config, logger: Logger): void {
  if (!config.HUB_URL) return;
  const modules = (Object.keys(notificationEvents) as NotifyingModule[]).filter(
    (m) => notificationEvents[m].length && !hubSecret(config, m),
  );
  if (modules.length) {
    logger.warn(
      { modules },
      `hub notifications of ${modules.join(', ')} are skipped: ${modules.map((m) => `${m.toUpperCase()}_WEBHOOK_SECRET`).join(', ')} not set`,
    );
  }
}
