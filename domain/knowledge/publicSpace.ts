import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** Modes whose spaces the public surface shows; internal spaces never appear there. */
export const publicModes = ['public_kb', 'blog'] as const;

/** A public space by slug (any organisation: slugs are unique across the service); internal or unknown is a 404. */
export async function findPublicSpace(em: Em, slug: string): Promise<KnowledgeSpace> {
  const space = await em.findOne(KnowledgeSpace, { slug, mode: { $in: [...publicModes] } }, { filters: false });
  if (!space) throw notFound('Space');
  return space;
}

/** The directory: public knowledge bases and blogs of every organisation, oldest first. */
export async function listPublicSpaces(em: Em, props: PageProps & { mode?: (typeof publicModes)[number] }): Promise<Page<KnowledgeSpace>> {
  const rows = await em.find(KnowledgeSpace, { mode: props.mode ?? { $in: [...publicModes] }, ...cursorWhere(props.cursor, 'asc') }, { filters: false, orderBy: { id: 'asc' }, limit: props.limit + 1 });
  return toPage(rows, props.limit);
}
