import { mailQueue } from '../../queues/identity';
import { redriveJob } from '../jobs/redriveJob';
import type { Services } from '../services';
import { queuedMailIds } from './store';

/** Mails older than this without a job are taken as lost by their writer; a mail queued two days ago and still not sent is left alone. */
const WINDOW = { from: '2 days', to: '30 seconds' };
const BATCH = 1000;

/**
 * Mails are their own outbox: a mail stays `queued` until the mail worker has sent or kept it (or it failed
 * every attempt). One still queued gets a job that will run under its id, the job id it always has
 * (domain/jobs/redriveJob.ts): added when it never reached Redis (a crash between the commit and the enqueue,
 * Redis down); retried when it failed (its failure hook, which marks the mail failed first, was cut short); added
 * again when it completed without the mail recorded. Returns how many mails were offered again.
 */
export async function relayQueuedMails(services: Services): Promise<number> {
  const rows = await queuedMailIds(services.orm.em.fork(), WINDOW, BATCH);
  let offered = 0;
  for (const { id } of rows)
    if ((await redriveJob(services, mailQueue, id, { mailId: id }, () => true)) !== 'live') offered++;
  return offered;
}
