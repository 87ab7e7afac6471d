import { accountLinkMailKey } from '../../domain/identity/accountLinkMail';
import { forgotPassword } from '../../domain/identity/forgotPassword';
import { resendConfirmation } from '../../domain/identity/resendConfirmation';
import { accountLinkQueue } from '../../queues/identity';
import { defineProcessor } from '../define';

/**
 * Mails the reset or confirmation link a route was asked for, when the address has an account that may get
 * one. Once per job: the mail's dedupe key is derived from the job id, so a replay dispatches the mail written
 * and issues no second token.
 */
export const accountLinksProcessor = defineProcessor(accountLinkQueue, {
  async perform({ purpose, email, ip }, { services, job }) {
    const dedupeKey = job.id ? accountLinkMailKey(job.id) : undefined;
    if (purpose === 'reset_password') await forgotPassword(services, { email, ip, dedupeKey });
    else await resendConfirmation(services, { email, dedupeKey });
  },
});
