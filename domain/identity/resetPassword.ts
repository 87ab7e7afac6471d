import { invalidField } from '../../lib/errors';
import { hashPassword, passwordProblem } from '../../lib/passwords';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { consumeEmailToken } from './consumeEmailToken';
import { endAllSessions } from './endSession';

export interface ResetPasswordProps {
  /** Token of the reset_password mail. */
  token: string;
  /** The new password, checked against the policy. */
  password: string;
  ip?: string | null;
}

/**
 * Sets a new password with a mailed token (single use, 1 hour) and ends every session of the account, on
 * every instance at once. The link proved the mailbox, so the address counts as confirmed too. A password
 * refused by the policy leaves the token usable.
 */
export async function resetPassword(services: Services, props: ResetPasswordProps): Promise<void> {
  const refuse = (email?: string) => {
    const problem = passwordProblem(props.password, email);
    if (problem) throw invalidField('password', problem);
  };
  refuse();
  const passwordHash = await hashPassword(props.password);
  const em = services.orm.em.fork();
  const userId = await em.transactional(async (tx) => {
    const user = await consumeEmailToken(tx, props.token, 'reset_password');
    refuse(user.email);
    user.passwordHash.set(passwordHash);
    user.emailConfirmedAt ??= new Date();
    audit(tx, { action: 'auth.password_reset', actorId: user.id, targetType: 'user', targetId: user.id, ip: props.ip });
    return user.id;
  });
  await endAllSessions(services, em, userId, 'password_reset');
}
