import type { KnowledgeSpace, SpaceMode } from '../../entities/knowledge/space';
import type { Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { spacesOldestFirst } from './store/spaces';

/** The organisation's spaces, oldest first, optionally of one mode. */
export async function listSpaces(
  ctx: TenantContext,
  props: PageProps & { mode?: SpaceMode },
): Promise<Page<Lean<KnowledgeSpace>>> {
  return toPage(await spacesOldestFirst(ctx, props.mode ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}
