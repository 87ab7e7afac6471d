import { Organization, Role } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import { notFound, unauthorized } from '../../lib/errors';
import { lean, rawDate, type Lean } from '../../lib/lean';
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

// Lean statements (docs/database-path.md): clients call this after every sign-in and refresh, so everything
// comes in one round trip of two statements. The caller's own memberships are read across tenants by design.
const userById = lean(User, { where: 'id = $1' });
// The organisations the caller belongs to, each with the membership and the caller's roles there (built by
// PostgreSQL as JSON, in id order), and the token's organisation even when the caller was removed from it
// meanwhile (listed first, so the limit never cuts it; no membership, no roles).
const organizationsOf = lean(Organization, {
  join: 'left join memberships m on m.tenant_id = organizations.id and m.user_id = $1',
  where: 'organizations.id = any(array(select tenant_id from memberships where user_id = $1) || $2::uuid)',
  orderBy: '(organizations.id = $2) desc, m.id asc',
  limit: 201,
  extra: {
    membershipId: 'm.id',
    joinedAt: 'm.created_at',
    roles: `coalesce((select json_agg(json_build_object('id', r.id, 'key', r.key, 'name', r.name) order by r.id) from membership_roles mr join roles r on r.id = mr.role_id where mr.membership_id = m.id), '[]'::json)`,
  },
});

/** GET /auth/me: profile, active organisation with roles and permissions, and all memberships (one round trip). */
export async function describeAccount(ctx: TenantContext): Promise<AccountDescription> {
  const { services, tenantId } = ctx;
  const userId = ctx.userId!;
  const [user, organizations, permissions] = await Promise.all([userById.one(ctx, userId), organizationsOf.all(ctx, userId, tenantId), services.permissions.of(tenantId, userId)]);
  if (!user || user.disabledAt) throw unauthorized('account_disabled', 'This account no longer exists or is disabled');
  const active = organizations.find((o) => o.id === tenantId);
  if (!active) throw notFound('Organization');
  // In the order they joined (UUIDv7 ids sort by creation), the first 200.
  const joined = organizations.filter((o) => o.membershipId).sort((a, b) => (String(a.membershipId) < String(b.membershipId) ? -1 : 1)).slice(0, 200);
  const { membershipId: _membership, joinedAt: _joined, roles, ...organization } = active;
  return {
    user,
    active: { organization, roles: roles as RoleRef[] },
    permissions: [...permissions].sort(),
    memberships: joined.map(({ membershipId: _id, joinedAt, roles: own, ...org }) => ({ organization: org, roles: own as RoleRef[], joinedAt: rawDate(joinedAt) })),
  };
}
