import type { RedisClient } from '../../lib/redis';
import type { Em } from '../../lib/db';
import { MailMessage } from '../../entities/platform/mail';

/** Statements of the outbox, and the per-recipient mail cap's Redis window. */

/** The mail composed under a dedupe key, if any. */
export const mailByDedupeKey = (em: Em, dedupeKey: string) => em.findOne(MailMessage, { dedupeKey });

/**
 * Ids of mails still `queued`, oldest first, written between `from` and `to` ago (PostgreSQL intervals, e.g.
 * '2 days'; constants of the caller, never input), at most `limit`.
 */
export const queuedMailIds = (em: Em, window: { from: string; to: string }, limit: number) =>
  em.execute<{ id: string }[]>(
    `select id from mail_messages where status = 'queued' and created_at > now() - interval '${window.from}' and created_at < now() - interval '${window.to}' order by created_at limit ${limit}`,
  );

// KEYS[1]: the recipient's mails sent in the window (a sorted set of mail ids by time). ARGV: now (ms), window (ms),
// cap, mail id. A mail already admitted is admitted again (a retried job), so a retry never counts twice.
const ADMIT = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
if redis.call('ZSCORE', KEYS[1], ARGV[4]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * Admits a mail into its recipient's sliding window (the sorted set at `key`) unless the window already holds
 * `cap` others; a mail admitted before is admitted again. True when admitted.
 */
export async function admitToRecipientWindow(
  redis: Pick<RedisClient, 'eval'>,
  key: string,
  mailId: string,
  windowMs: number,
  cap: number,
): Promise<boolean> {
  return (await redis.eval(ADMIT, 1, key, Date.now(), windowMs, cap, mailId)) === 1;
}
