import { mailQueue } from '../../queues/identity';
import type { Services } from '../services';

/** Mails older than this without a job are taken as lost by their writer; a mail queued two days ago and still not sent is left alone. */
const WINDOW = { from: '2 days', to: '30 seconds' };
const BATCH = 1000;

/**
 * Mails are their own outbox: a mail stays `queued` until the mail worker has sent or kept it (or it failed
 * every attempt). One whose job never reached Redis (a crash between the commit and the enqueue, Redis down)
 * is enqueued again under its id, the job id it always has: a no-op while its job exists. Returns how many
 * mails were offered.
 */
export async function relayQueuedMails(services: Services): Promise<number> {
  const rows = await services.orm.em
    .fork()
    .execute<{ id: string }[]>(
      `select id from mail_messages where status = 'queued' and created_at > now() - interval '${WINDOW.from}' and created_at < now() - interval '${WINDOW.to}' order by created_at limit ${BATCH}`,
    );
  if (rows.length) await services.queues.addBulk(mailQueue, rows.map((r) => ({ payload: { mailId: r.id }, options: { jobId: r.id } })));
  return rows.length;
}
