import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { lean, withoutTenant, type Lean } from '../../lib/lean';
import { toPage, type Page, type PageProps } from '../../lib/pagination';
import type { Services } from '../services';

/** Modes whose spaces the public surface shows; internal spaces never appear there. */
export const publicModes = ['public_kb', 'blog'] as const;

/** A public space by slug (any organisation: slugs are unique across the service); internal or unknown is a 404. For use cases that write (subscribe) or hand the em on. */
export async function findPublicSpace(em: Em, slug: string): Promise<KnowledgeSpace> {
  const space = await em.findOne(KnowledgeSpace, { slug, mode: { $in: [...publicModes] } }, { filters: false });
  if (!space) throw notFound('Space');
  return space;
}

// Lean statements (docs/database-path.md) of the anonymous public reads. Both cross tenants by design, as the
// em reads they replace did (`filters: false`): a space is found by its slug, unique across the service, before
// any tenant is known, and the directory lists the public spaces of every organisation. Only public modes.
const publicSpaceBySlug = lean(KnowledgeSpace, { crossTenant: true, where: `slug = $1 and mode in ('public_kb', 'blog')` });
const publicSpacesPage = lean(KnowledgeSpace, {
  crossTenant: true,
  columns: ['id', 'slug', 'name', 'mode', 'description', 'language'],
  where: `mode in ('public_kb', 'blog') and ($1::text is null or mode = $1) and ($2::uuid is null or id > $2)`,
  orderBy: 'id asc',
  limitParam: '$3',
});

/** The public space of a slug (lean; its tenantId binds every further read), or 404. */
export async function readPublicSpace(services: Services, slug: string): Promise<Lean<KnowledgeSpace>> {
  const space = await publicSpaceBySlug.one(withoutTenant(services), slug);
  if (!space) throw notFound('Space');
  return space;
}

export type PublicSpaceSummary = Pick<Lean<KnowledgeSpace>, 'id' | 'slug' | 'name' | 'mode' | 'description' | 'language'>;

/** The directory: public knowledge bases and blogs of every organisation, oldest first. */
export async function listPublicSpaces(services: Services, props: PageProps & { mode?: (typeof publicModes)[number] }): Promise<Page<PublicSpaceSummary>> {
  return toPage(await publicSpacesPage.all(withoutTenant(services), props.mode ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}
