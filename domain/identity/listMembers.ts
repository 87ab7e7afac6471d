import { Membership } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** Members of the context's organisation in the order they joined, with their user and roles. */
export async function listMembers(ctx: TenantContext, page: PageProps): Promise<Page<Membership>> {
  const rows = await ctx.em.find(Membership, cursorWhere(page.cursor, 'asc'), { populate: ['user', 'roles'], orderBy: { id: 'asc' }, limit: page.limit + 1 });
  return toPage(rows, page.limit);
}
