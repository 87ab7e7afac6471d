import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { normalizeEmail } from './createUser';
import { issueEmailToken } from './emailTokens';
import { composeMail, dispatchMails } from './mail';

export interface ResendConfirmationProps {
  /** Address of the account to confirm. */
  email: string;
}

/**
 * Mails a new confirmation link (the previous ones stop working) to an active, unconfirmed account. Unknown,
 * confirmed and disabled addresses get nothing. Runs in a worker (requestAccountLink queues it), so the
 * caller cannot tell which case it was, not even by the time of the answer.
 */
export async function resendConfirmation(services: Services, props: ResendConfirmationProps): Promise<void> {
  const em = services.orm.em.fork();
  const user = await em.findOne(User, { email: normalizeEmail(props.email), emailConfirmedAt: null, disabledAt: null });
  if (!user) return;
  const token = await issueEmailToken(em, user, 'confirm_email');
  const mail = composeMail(em, services, { to: user.email, template: 'confirm_email', data: { name: user.displayName, token } });
  await em.flush();
  await dispatchMails(services, [mail]);
}
