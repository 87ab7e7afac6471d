import type { Role } from '../../entities/identity/organization';
import type { Lean } from '../../lib/lean';
import { rolesPage } from './store/roles';
import type { TenantContext } from '../context';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

export interface RoleWithUsage {
  id: string;
  role: Lean<Role>;
  /** How many members hold it. */
  memberCount: number;
}

/** Roles of the context's organisation (system roles first, as created), with how many members hold each. */
export async function listRoles(ctx: TenantContext, page: PageProps): Promise<Page<RoleWithUsage>> {
  const { items, nextCursor } = toPage(await rolesPage.all(ctx, page.cursor ?? null, page.limit + 1), page.limit);
  return {
    items: items.map(({ memberCount, ...role }) => ({ id: role.id, role, memberCount: memberCount as number })),
    nextCursor,
  };
}
