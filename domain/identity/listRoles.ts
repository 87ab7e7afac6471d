import { Role } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

export interface RoleWithUsage {
  id: string;
  role: Role;
  /** How many members hold it. */
  memberCount: number;
}

/** Roles of the context's organisation (system roles first, as created), with how many members hold each. */
export async function listRoles(ctx: TenantContext, page: PageProps): Promise<Page<RoleWithUsage>> {
  const rows = await ctx.em.find(Role, cursorWhere(page.cursor, 'asc'), { orderBy: { id: 'asc' }, limit: page.limit + 1 });
  const { items, nextCursor } = toPage(rows, page.limit);
  const counts = items.length
    ? await ctx.em.execute<{ role_id: string; count: number }[]>('select role_id, count(*)::int as count from membership_roles where role_id in (?) group by role_id', [items.map((r) => r.id)])
    : [];
  const count = new Map(counts.map((c) => [c.role_id, c.count]));
  return { items: items.map((role) => ({ id: role.id, role, memberCount: count.get(role.id) ?? 0 })), nextCursor };
}
