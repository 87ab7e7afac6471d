import type { MyOrganization } from './myOrganizations';
import { membershipsOfUserPage, organizationsById, rolesOfOwnMemberships } from './store/memberships';
import type { TenantContext } from '../context';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

/** The organisations a user belongs to, in the order they joined, with their roles in each. */
export async function listMyOrganizations(
  ctx: TenantContext,
  userId: string,
  page: PageProps,
): Promise<Page<MyOrganization>> {
  const { items, nextCursor } = toPage(
    await membershipsOfUserPage.all(ctx, userId, page.cursor ?? null, page.limit + 1),
    page.limit,
  );
  if (!items.length) return { items: [], nextCursor };
  const [orgs, roles] = await Promise.all([
    organizationsById.all(
      ctx,
      items.map((m) => m.tenantId),
    ),
    rolesOfOwnMemberships.all(
      ctx,
      items.map((m) => m.id),
    ),
  ]);
  const byId = new Map(orgs.map((o) => [o.id, o]));
  return {
    items: items.map((m) => ({
      id: m.id,
      organization: byId.get(m.tenantId)!,
      roles: roles.filter((r) => r.membershipId === m.id).map(({ membershipId: _, ...role }) => role),
      joinedAt: m.createdAt,
    })),
    nextCursor,
  };
}
