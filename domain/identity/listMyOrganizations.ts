import type { Em } from '../../lib/db';
import { Membership, Organization } from '../../entities/identity/organization';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** An organisation the user belongs to, with their membership (roles populated). */
export interface MyOrganization {
  id: string;
  organization: Organization;
  membership: Membership;
}

/** The memberships given, with their organisations (one query for all). */
export async function withOrganizations(em: Em, memberships: Membership[]): Promise<MyOrganization[]> {
  const orgs = await em.find(Organization, { id: { $in: memberships.map((m) => m.tenantId) } });
  const byId = new Map(orgs.map((o) => [o.id, o]));
  return memberships.map((m) => ({ id: m.id, organization: byId.get(m.tenantId)!, membership: m }));
}

/** The organisations a user belongs to, in the order they joined, with their roles in each. */
export async function listMyOrganizations(em: Em, userId: string, page: PageProps): Promise<Page<MyOrganization>> {
  const rows = await em.find(Membership, { user: userId, ...cursorWhere(page.cursor, 'asc') }, { populate: ['roles'], orderBy: { id: 'asc' }, limit: page.limit + 1, filters: { tenant: false } });
  const { items, nextCursor } = toPage(rows, page.limit);
  return { items: await withOrganizations(em, items), nextCursor };
}
