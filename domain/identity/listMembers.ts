import { Membership, Role } from '../../entities/identity/organization';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

/** A member as the API shows one: the membership, its user's identity and the roles held. */
export interface Member {
  /** The membership's id (the page cursor). */
  id: string;
  userId: string;
  email: string;
  displayName: string;
  roles: Lean<Role>[];
  joinedAt: Date;
}

/** A membership entity (user and roles loaded) as a member. */
export const memberOf = (m: Membership): Member => ({ id: m.id, userId: m.user.id, email: m.user.email, displayName: m.user.displayName, roles: m.roles.getItems(), joinedAt: m.createdAt });

// Lean statements (docs/database-path.md): the page of memberships with their users' identity, then the roles
// of the whole page through the pivot, in order of creation (system roles first).
const membersPage = lean(Membership, {
  join: 'join users u on u.id = memberships.user_id',
  where: '($1::uuid is null or memberships.id > $1)',
  orderBy: 'memberships.id asc',
  limitParam: '$2',
  extra: { userId: 'u.id', email: 'u.email', displayName: 'u.display_name' },
});
const rolesOfMemberships = lean(Role, {
  join: 'join membership_roles mr on mr.role_id = roles.id',
  where: 'mr.membership_id = any($1::uuid[])',
  orderBy: 'roles.id asc',
  extra: { membershipId: 'mr.membership_id' },
});

/** Members of the context's organisation in the order they joined, with their user and roles. */
export async function listMembers(ctx: TenantContext, page: PageProps): Promise<Page<Member>> {
  const { items, nextCursor } = toPage(await membersPage.all(ctx, page.cursor ?? null, page.limit + 1), page.limit);
  const roles = items.length ? await rolesOfMemberships.all(ctx, items.map((m) => m.id)) : [];
  return {
    items: items.map((m) => ({
      id: m.id,
      userId: m.userId as string,
      email: m.email as string,
      displayName: m.displayName as string,
      roles: roles.filter((r) => r.membershipId === m.id).map(({ membershipId: _, ...role }) => role),
      joinedAt: m.createdAt,
    })),
    nextCursor,
  };
}
