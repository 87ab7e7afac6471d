import type { Organization, Role } from '../../entities/identity/organization';
import type { User } from '../../entities/identity/user';
import { notFound, unauthorized } from '../../lib/errors';
import { rawDate, type Lean } from '../../lib/lean';
import { accountById, organizationsOfAccount } from './store/users';
import type { TenantContext } from '../context';

/** A role as the account shows it. */
export type RoleRef = Pick<Lean<Role>, 'id' | 'key' | 'name'>;

/** An organisation the caller belongs to, with their roles there. */
export interface AccountMembership {
  organization: Lean<Organization>;
  roles: RoleRef[];
  joinedAt: Date;
}

/** Everything a client needs after sign-in. */
export interface AccountDescription {
  user: Lean<User>;
  /** The token's organisation, with the caller's roles there (none if removed meanwhile). */
  active: { organization: Lean<Organization>; roles: RoleRef[] };
  /** Effective permissions in the active organisation. */
  permissions: string[];
  /** Every organisation the caller belongs to (first 200), in the order they joined. */
  memberships: AccountMembership[];
}

/** GET /auth/me: profile, active organisation with roles and permissions, and all memberships (one round trip). */
export async function describeAccount(ctx: TenantContext): Promise<AccountDescription> {
  const { services, tenantId } = ctx;
  const userId = ctx.userId!;
  const [user, organizations, permissions] = await Promise.all([
    accountById.one(ctx, userId),
    organizationsOfAccount.all(ctx, userId, tenantId),
    services.permissions.of(tenantId, userId),
  ]);
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  const active = organizations.find((o) => o.id === tenantId);
  if (!active) throw notFound('Organization');
  // In the order they joined (UUIDv7 ids sort by creation), the first 200.
  const joined = organizations
    .filter((o) => o.membershipId)
    .sort((a, b) => (String(a.membershipId) < String(b.membershipId) ? -1 : 1))
    .slice(0, 200);
  const { membershipId: _membership, joinedAt: _joined, roles, ...organization } = active;
  return {
    user,
    active: { organization, roles: roles as RoleRef[] },
    permissions: [...permissions].sort(),
    memberships: joined.map(({ membershipId: _id, joinedAt, roles: own, ...org }) => ({
      organization: org,
      roles: own as RoleRef[],
      joinedAt: rawDate(joinedAt),
    })),
  };
}
