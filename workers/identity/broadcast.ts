import { Broadcast, MailMessage } from '../../entities/platform/mail';
import { User } from '../../entities/identity/user';
import { broadcastQueue } from '../../queues/identity';
import { composeMail, dispatchMails } from '../../domain/platform/mail';
import { defineProcessor } from '../define';

const BATCH = 200;

/**
 * Fans a broadcast out to active users, one batch of mails per job: the batch is written to the outbox with
 * a dedupe key per recipient, then dispatched (mail jobs are keyed by mail id), then the next batch is
 * enqueued. A retried batch finds its mails already written and only dispatches them again, which sends nothing twice.
 */
export const broadcastProcessor = defineProcessor(broadcastQueue, {
  async perform(payload, { services }) {
    const em = services.orm.em.fork();
    const users = await em.find(
      User,
      {
        disabledAt: null,
        emailConfirmedAt: { $ne: null },
        ...(payload.afterUserId ? { id: { $gt: payload.afterUserId } } : {}),
      },
      { orderBy: { id: 'asc' }, limit: BATCH, fields: ['id', 'email'] },
    );
    const keyOf = (userId: string) => `broadcast:${payload.broadcastId}:${userId}`;
    const written = await em.find(MailMessage, { dedupeKey: { $in: users.map((u) => keyOf(u.id)) } });
    const have = new Set(written.map((m) => m.dedupeKey));
    const mails = users
      .filter((u) => !have.has(keyOf(u.id)))
      .map((u) =>
        composeMail(em, services, {
          to: u.email,
          template: 'broadcast',
          data: { subject: payload.subject, text: payload.text },
          dedupeKey: keyOf(u.id),
        }),
      );
    await em.flush();
    await dispatchMails(services, [...written, ...mails]);

    const last = users.at(-1);
    if (users.length === BATCH && last) {
      await services.queues.add(
        broadcastQueue,
        { ...payload, afterUserId: last.id },
        { jobId: `broadcast.${payload.broadcastId}.${last.id}` },
      );
    } else {
      const recipients = await em.count(MailMessage, { dedupeKey: { $like: `broadcast:${payload.broadcastId}:%` } });
      await em.nativeUpdate(Broadcast, { id: payload.broadcastId }, { completedAt: new Date(), recipients });
    }
    return { mailed: mails.length };
  },
});
