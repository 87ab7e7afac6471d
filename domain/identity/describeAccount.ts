import { Membership, Organization } from '../../entities/identity/organization';
import type { User } from '../../entities/identity/user';
import type { TenantContext } from '../context';
import { listMyOrganizations, type MyOrganization } from './listMyOrganizations';
import { getProfile } from './profile';

/** Everything a client needs after sign-in. */
export interface AccountDescription {
  user: User;
  /** The token's organisation, with the caller's membership there (null if removed meanwhile). */
  active: { organization: Organization; membership: Membership | null };
  /** Effective permissions in the active organisation. */
  permissions: string[];
  /** Every organisation the caller belongs to (first 200). */
  memberships: MyOrganization[];
}

/** GET /auth/me: profile, active organisation with roles and permissions, and all memberships. */
export async function describeAccount(ctx: TenantContext): Promise<AccountDescription> {
  const { em, services, tenantId } = ctx;
  const userId = ctx.userId!;
  const [user, organization, membership, permissions, memberships] = await Promise.all([
    getProfile(ctx),
    em.findOneOrFail(Organization, { id: tenantId }),
    em.findOne(Membership, { user: userId }, { populate: ['roles'] }),
    services.permissions.of(tenantId, userId),
    listMyOrganizations(em.fork(), userId, { limit: 200 }),
  ]);
  return { user, active: { organization, membership }, permissions: [...permissions].sort(), memberships: memberships.items };
}
