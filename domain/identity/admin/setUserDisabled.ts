import { conflict, notFound } from '../../../lib/errors';
import { User } from '../../../entities/identity/user';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';
import { endAllSessions } from '../endSession';
import { revokeAllAppPasswordsOf } from '../store/appPasswords';

export interface SetUserDisabledProps {
  /** The platform administrator acting. */
  actorId: string;
  userId: string;
  disabled: boolean;
  ip?: string | null;
}

/**
 * Disables an account (it can no longer sign in or refresh, and every token it holds is revoked at once on
 * every instance, its app passwords too) or enables it again (old tokens and app passwords stay revoked).
 * Administrators cannot disable themselves (409 `cannot_disable_self`).
 * Repeating the same state changes nothing.
 */
export async function setUserDisabled(services: Services, props: SetUserDisabledProps): Promise<User> {
  if (props.disabled && props.userId === props.actorId)
    throw conflict('cannot_disable_self', 'You cannot disable your own account');
  const em = services.orm.em.fork();
  const user = await em.findOne(User, { id: props.userId });
  if (!user) throw notFound('User');
  if (!!user.disabledAt === props.disabled) return user;
  user.disabledAt = props.disabled ? new Date() : null;
  audit(em, {
    action: props.disabled ? 'admin.user_disabled' : 'admin.user_enabled',
    actorId: props.actorId,
    targetType: 'user',
    targetId: user.id,
    ip: props.ip,
  });
  if (props.disabled) await revokeAllAppPasswordsOf(em, user.id, new Date());
  await em.flush();
  if (props.disabled) await endAllSessions(services, em, user.id, 'account_disabled');
  return user;
}
