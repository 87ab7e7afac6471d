import { Membership, Organization, Role } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import { notFound, unauthorized } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
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

// Lean statements (docs/database-path.md): clients call this after every sign-in and refresh.
const userById = lean(User, { where: 'id = $1' });
// The caller's memberships in every organisation: their own account, across tenants by design.
const membershipsOf = lean(Membership, { where: 'user_id = $1', orderBy: 'id asc', limit: 200, crossTenant: true });
const organizationsByIds = lean(Organization, { where: 'id = any($1::uuid[])' });
// Roles of those memberships (each membership belongs to the caller), with the membership they come from.
const rolesOfMemberships = lean(Role, {
  join: 'join membership_roles mr on mr.role_id = roles.id',
  where: 'mr.membership_id = any($1::uuid[])',
  orderBy: 'roles.id asc',
  extra: { membershipId: 'mr.membership_id' },
  crossTenant: true,
});

/** GET /auth/me: profile, active organisation with roles and permissions, and all memberships (two round trips). */
export async function describeAccount(ctx: TenantContext): Promise<AccountDescription> {
  const { services, tenantId } = ctx;
  const userId = ctx.userId!;
  const [user, memberships, permissions] = await Promise.all([userById.one(ctx, userId), membershipsOf.all(ctx, userId), services.permissions.of(tenantId, userId)]);
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  const ids = memberships.map((m) => m.id);
  const [organizations, roles] = await Promise.all([organizationsByIds.all(ctx, [...new Set([tenantId, ...memberships.map((m) => m.tenantId)])]), ids.length ? rolesOfMemberships.all(ctx, ids) : []]);
  const organization = organizations.find((o) => o.id === tenantId);
  if (!organization) throw notFound('Organization');
  const byId = new Map(organizations.map((o) => [o.id, o]));
  const rolesOf = (membershipId: string | undefined) => roles.filter((r) => r.membershipId === membershipId);
  return {
    user,
    active: { organization, roles: rolesOf(memberships.find((m) => m.tenantId === tenantId)?.id) },
    permissions: [...permissions].sort(),
    memberships: memberships.flatMap((m) => {
      const org = byId.get(m.tenantId);
      return org ? [{ organization: org, roles: rolesOf(m.id), joinedAt: m.createdAt }] : [];
    }),
  };
}
