import { Organization, Role } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import { notFound, unauthorized } from '../../lib/errors';
import { lean, rawDate, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';

/** An organisation the caller belongs to, with their roles there. */
export interface AccountMembership {
  organization: Lean<Organization>;
  roles: Lean<Role>[];
  joinedAt: Date;
}

/** Everything a client needs after sign-in. */
export interface AccountDescription {
  user: Lean<User>;
  /** The token's organisation, with the caller's roles there (none if removed meanwhile). */
  active: { organization: Lean<Organization>; roles: Lean<Role>[] };
  /** Effective permissions in the active organisation. */
  permissions: string[];
  /** Every organisation the caller belongs to (first 200), in the order they joined. */
  memberships: AccountMembership[];
}

// Lean statements (docs/database-path.md): clients call this after every sign-in and refresh, so everything
// comes in one round trip of three statements. The caller's own memberships are read across tenants by design.
const userById = lean(User, { where: 'id = $1' });
// The organisations the caller belongs to, with the membership, and the token's organisation even when the
// caller was removed from it meanwhile (listed first, so the limit never cuts it).
const organizationsOf = lean(Organization, {
  join: 'left join memberships m on m.tenant_id = organizations.id and m.user_id = $1',
  where: 'organizations.id = any(array(select tenant_id from memberships where user_id = $1) || $2::uuid)',
  orderBy: '(organizations.id = $2) desc, m.id asc',
  limit: 201,
  extra: { membershipId: 'm.id', joinedAt: 'm.created_at' },
});
// The caller's roles in every organisation, with the membership they come from.
const rolesOfUser = lean(Role, {
  join: 'join membership_roles mr on mr.role_id = roles.id join memberships m on m.id = mr.membership_id',
  where: 'm.user_id = $1',
  orderBy: 'roles.id asc',
  extra: { membershipId: 'mr.membership_id' },
  crossTenant: true,
});

/** GET /auth/me: profile, active organisation with roles and permissions, and all memberships (one round trip). */
export async function describeAccount(ctx: TenantContext): Promise<AccountDescription> {
  const { services, tenantId } = ctx;
  const userId = ctx.userId!;
  const [user, organizations, roles, permissions] = await Promise.all([
    userById.one(ctx, userId),
    organizationsOf.all(ctx, userId, tenantId),
    rolesOfUser.all(ctx, userId),
    services.permissions.of(tenantId, userId),
  ]);
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  const active = organizations.find((o) => o.id === tenantId);
  if (!active) throw notFound('Organization');
  const rolesOf = (membershipId: unknown) => (membershipId ? roles.filter((r) => r.membershipId === membershipId) : []);
  // In the order they joined (UUIDv7 ids sort by creation), the first 200.
  const joined = organizations.filter((o) => o.membershipId).sort((a, b) => (String(a.membershipId) < String(b.membershipId) ? -1 : 1)).slice(0, 200);
  const { membershipId: activeMembership, joinedAt: _joined, ...organization } = active;
  return {
    user,
    active: { organization, roles: rolesOf(activeMembership) },
    permissions: [...permissions].sort(),
    memberships: joined.map(({ membershipId, joinedAt, ...org }) => ({ organization: org, roles: rolesOf(membershipId), joinedAt: rawDate(joinedAt) })),
  };
}
