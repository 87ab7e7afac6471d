import type { Membership, Organization, Role } from '../../entities/identity/organization';
import { withoutTenant, type Lean } from '../../lib/lean';
import { membershipsOfUserPage, organizationsById, rolesOfOwnMemberships } from './store/memberships';
import type { TenantContext } from '../context';
import type { Services } from '../services';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

/** An organisation the user belongs to, with their roles there and when they joined. */
export interface MyOrganization {
  /** The membership's id (the page cursor). */
  id: string;
  organization: Lean<Organization>;
  roles: Lean<Role>[];
  joinedAt: Date;
}

/**
 * The memberships given (roles populated), with their organisations (one statement for all): what founding an
 * organisation or accepting an invitation answers, read after their flush. Organisations are not tenant-scoped.
 */
export async function withOrganizations(services: Services, memberships: Membership[]): Promise<MyOrganization[]> {
  const orgs = await organizationsById.all(withoutTenant(services), memberships.map((m) => m.tenantId));
  const byId = new Map(orgs.map((o) => [o.id, o]));
  return memberships.map((m) => ({ id: m.id, organization: byId.get(m.tenantId)!, roles: m.roles.getItems(), joinedAt: m.createdAt }));
}

/** The organisations a user belongs to, in the order they joined, with their roles in each. */
export async function listMyOrganizations(ctx: TenantContext, userId: string, page: PageProps): Promise<Page<MyOrganization>> {
  const { items, nextCursor } = toPage(await membershipsOfUserPage.all(ctx, userId, page.cursor ?? null, page.limit + 1), page.limit);
  if (!items.length) return { items: [], nextCursor };
  const [orgs, roles] = await Promise.all([organizationsById.all(ctx, items.map((m) => m.tenantId)), rolesOfOwnMemberships.all(ctx, items.map((m) => m.id))]);
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
