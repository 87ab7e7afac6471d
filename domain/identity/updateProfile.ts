import type { TenantContext } from '../context';
import type { User } from '../../entities/identity/user';
import { getProfile } from './getProfile';

export interface UpdateProfileProps {
  displayName?: string;
  locale?: string;
  timezone?: string;
}

/** Changes the caller's display name, locale or time zone. */
export async function updateProfile(ctx: TenantContext, props: UpdateProfileProps): Promise<User> {
  const user = await getProfile(ctx);
  if (props.displayName !== undefined) user.displayName = props.displayName.trim();
  if (props.locale !== undefined) user.locale = props.locale;
  if (props.timezone !== undefined) user.timezone = props.timezone;
  await ctx.em.flush();
  return user;
}
