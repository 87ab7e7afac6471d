import { Role } from '../../entities/identity/organization';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

export interface RoleWithUsage {
  id: string;
  role: Lean<Role>;
  /** How many members hold it. */
  memberCount: number;
}

// A lean statement (docs/database-path.md): the page of roles and how many members hold each, in one round trip.
const rolesPage = lean(Role, {
  where: '($1::uuid is null or id > $1)',
  orderBy: 'id asc',
  limitParam: '$2',
  extra: { memberCount: '(select count(*)::int from membership_roles mr where mr.role_id = roles.id)' },
});

/** Roles of the context's organisation (system roles first, as created), with how many members hold each. */
export async function listRoles(ctx: TenantContext, page: PageProps): Promise<Page<RoleWithUsage>> {
  const { items, nextCursor } = toPage(await rolesPage.all(ctx, page.cursor ?? null, page.limit + 1), page.limit);
  return { items: items.map(({ memberCount, ...role }) => ({ id: role.id, role, memberCount: memberCount as number })), nextCursor };
}
