import type { Services } from '../services';
import { mailAccountLinkOnce } from './accountLinkMail';
import { audit } from '../platform/audit';
import { normalizeEmail } from './createUser';
import { issueEmailToken } from './issueEmailToken';
import { composeMail } from '../platform/mail';
import { activeUserByEmail } from './store/users';

export interface ForgotPasswordProps {
  /** Address of the account. */
  email: string;
  ip?: string | null;
  /** Makes the request's mail unique (accountLinkMailKey of its job): running it again mails no second link. */
  dedupeKey?: string;
}

/**
 * Mails a single-use reset link to an active account; does nothing for any other address. Runs in a worker
 * (requestAccountLink queues it), so the route answers the same, in the same time, for every address. The
 * token, the mail and the audit entry commit together, once per request (mailAccountLinkOnce).
 */
export async function forgotPassword(services: Services, props: ForgotPasswordProps): Promise<void> {
  await mailAccountLinkOnce(services, props.dedupeKey, async (em) => {
    const user = await activeUserByEmail(em, normalizeEmail(props.email));
    if (!user) return null;
    const token = await issueEmailToken(em, user, 'reset_password');
    const mail = composeMail(em, services, {
      to: user.email,
      template: 'reset_password',
      data: { name: user.displayName, token },
      dedupeKey: props.dedupeKey,
    });
    audit(em, { action: 'auth.password_reset_requested', targetType: 'user', targetId: user.id, ip: props.ip });
    return mail;
  });
}
