import type { TenantContext } from '../context';
import { User } from '../../entities/identity/user';
import { unauthorized } from '../../lib/errors';

/** The caller's account; 401 `account_disabled` when it no longer exists or is disabled. */
export async function getProfile(ctx: TenantContext): Promise<User> {
  const user = await ctx.em.findOne(User, { id: ctx.userId! });
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  return user;
}
