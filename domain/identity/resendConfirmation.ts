import type { Services } from '../services';
import { mailAccountLinkOnce } from './accountLinkMail';
import { normalizeEmail } from './createUser';
import { issueEmailToken } from './issueEmailToken';
import { composeMail } from '../platform/mail';
import { unconfirmedUserByEmail } from './store/users';

export interface ResendConfirmationProps {
  /** Address of the account to confirm. */
  email: string;
  /** Makes the request's mail unique (accountLinkMailKey of its job): running it again mails no second link. */
  dedupeKey?: string;
}

/**
 * Mails a new confirmation link (the previous ones stop working) to an active, unconfirmed account. Unknown,
 * confirmed and disabled addresses get nothing. Runs in a worker (requestAccountLink queues it), so the
 * caller cannot tell which case it was, not even by the time of the answer. The token and the mail commit
 * together, once per request (mailAccountLinkOnce).
 */
export async function resendConfirmation(services: Services, props: ResendConfirmationProps): Promise<void> {
  await mailAccountLinkOnce(services, props.dedupeKey, async (em) => {
    const user = await unconfirmedUserByEmail(em, normalizeEmail(props.email));
    if (!user) return null;
    const token = await issueEmailToken(em, user, 'confirm_email');
    return composeMail(em, services, {
      to: user.email,
      template: 'confirm_email',
      data: { name: user.displayName, token },
      dedupeKey: props.dedupeKey,
    });
  });
}
