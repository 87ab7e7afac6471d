import type { User } from '../../entities/identity/user';
import type { Em } from '../../lib/db';
import { unauthorized } from '../../lib/errors';
import { audit } from '../platform/audit';

/** A sign-in of a disabled account (its credential right): audited `auth.login_refused`, then 401 `account_disabled`. */
export async function refuseDisabledAccount(em: Em, user: User, ip: string | null | undefined): Promise<void> {
  if (!user.disabledAt) return;
  audit(em, {
    action: 'auth.login_refused',
    actorId: user.id,
    targetType: 'user',
    targetId: user.id,
    ip,
    data: { reason: 'account_disabled' },
  });
  await em.flush();
  throw unauthorized('account_disabled', 'This account is disabled');
}
