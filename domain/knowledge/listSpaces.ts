import { KnowledgeSpace, type SpaceMode } from '../../entities/knowledge/space';
import { lean, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';

// A lean statement (docs/database-path.md): with or without a mode, one prepared statement.
const spacesPage = lean(KnowledgeSpace, { where: '($1::text is null or mode = $1) and ($2::uuid is null or id > $2)', orderBy: 'id asc', limitParam: '$3' });

/** The organisation's spaces, oldest first, optionally of one mode. */
export async function listSpaces(ctx: TenantContext, props: PageProps & { mode?: SpaceMode }): Promise<Page<Lean<KnowledgeSpace>>> {
  return toPage(await spacesPage.all(ctx, props.mode ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}
