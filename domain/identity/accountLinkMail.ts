import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { MailMessage } from '../../entities/platform/mail';
import type { Em } from '../../lib/db';
import type { Services } from '../services';
import { dispatchMails } from '../platform/mail';
import { mailByDedupeKey } from '../platform/store';

/** The dedupe key of the mail an account-link job composes: one mail per job, whatever runs it again. */
export const accountLinkMailKey = (jobId: string): string => `account-link:${jobId}`;

/**
 * Composes the mail of an account link once per `dedupeKey` (the job's), then dispatches it. The mail is looked
 * up first: a job that runs again (a stall after its commit, a retry after a failed dispatch) dispatches the
 * mail it already wrote and issues no new token, so the link mailed stays the live one. `compose` issues the
 * token and writes the mail (or returns null: no account may get one) in one transaction, so two runs of the
 * same job at once commit one token and one mail: the other's insert meets the dedupe key and rolls back.
 */
export async function mailAccountLinkOnce(
  services: Services,
  dedupeKey: string | undefined,
  compose: (tx: Em) => Promise<MailMessage | null>,
): Promise<void> {
  const em = services.orm.em.fork();
  const earlier = dedupeKey ? await mailByDedupeKey(em, dedupeKey) : null;
  if (earlier) return dispatchMails(services, [earlier]);
  let mail: MailMessage | null;
  try {
    mail = await em.transactional((tx) => compose(tx));
  } catch (err) {
    const won =
      dedupeKey && err instanceof UniqueConstraintViolationException
        ? await mailByDedupeKey(services.orm.em.fork(), dedupeKey)
        : null;
    if (!won) throw err;
    mail = won;
  }
  if (mail) await dispatchMails(services, [mail]);
}
