import { KnowledgeSpace, type SpaceMode } from '../../entities/knowledge/space';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

/** The organisation's spaces, oldest first, optionally of one mode. */
export async function listSpaces(ctx: TenantContext, props: PageProps & { mode?: SpaceMode }): Promise<Page<KnowledgeSpace>> {
  const rows = await ctx.em.find(KnowledgeSpace, { ...(props.mode ? { mode: props.mode } : {}), ...cursorWhere(props.cursor, 'asc') }, { orderBy: { id: 'asc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
