import type { Membership, Role } from '../../entities/identity/organization';
import type { Lean } from '../../lib/lean';
import { membersPage, rolesOfMembers } from './store/memberships';
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
export const memberOf = (m: Membership): Member => ({
  id: m.id,
  userId: m.user.id,
  email: m.user.email,
  displayName: m.user.displayName,
  roles: m.roles.getItems(),
  joinedAt: m.createdAt,
});

/** Members of the context's organisation in the order they joined, with their user and roles. */
export async function listMembers(ctx: TenantContext, page: PageProps): Promise<Page<Member>> {
  const { items, nextCursor } = toPage(await membersPage.all(ctx, page.cursor ?? null, page.limit + 1), page.limit);
  const roles = items.length
    ? await rolesOfMembers.all(
        ctx,
        items.map((m) => m.id),
      )
    : [];
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
