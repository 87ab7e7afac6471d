import type { TenantContext } from '../context';
import { User } from '../../entities/identity/user';
import { unauthorized } from '../../lib/errors';

async function me(ctx: TenantContext): Promise<User> {
  const user = await ctx.em.findOne(User, { id: ctx.userId! });
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  return user;
}

export const getProfile = me;

export interface UpdateProfileProps {
  displayName?: string;
  locale?: string;
  timezone?: string;
}

/** Changes the caller's display name, locale or time zone. */
export async function updateProfile(ctx: TenantContext, props: UpdateProfileProps): Promise<User> {
  const user = await me(ctx);
  if (props.displayName !== undefined) user.displayName = props.displayName.trim();
  if (props.locale !== undefined) user.locale = props.locale;
  if (props.timezone !== undefined) user.timezone = props.timezone;
  await ctx.em.flush();
  return user;
}
