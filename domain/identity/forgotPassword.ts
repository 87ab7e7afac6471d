import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from './audit';
import { normalizeEmail } from './createUser';
import { issueEmailToken } from './emailTokens';
import { composeMail, dispatchMails } from './mail';

export interface ForgotPasswordProps {
  /** Address of the account. */
  email: string;
  ip?: string | null;
}

/**
 * Mails a single-use reset link to an active account; does nothing for any other address. Runs in a worker
 * (requestAccountLink queues it), so the route answers the same, in the same time, for every address.
 */
export async function forgotPassword(services: Services, props: ForgotPasswordProps): Promise<void> {
  const em = services.orm.em.fork();
  const user = await em.findOne(User, { email: normalizeEmail(props.email), disabledAt: null });
  if (!user) return;
  const token = await issueEmailToken(em, user, 'reset_password');
  const mail = composeMail(em, services, { to: user.email, template: 'reset_password', data: { name: user.displayName, token } });
  audit(em, { action: 'auth.password_reset_requested', targetType: 'user', targetId: user.id, ip: props.ip });
  await em.flush();
  await dispatchMails(services, [mail]);
}
