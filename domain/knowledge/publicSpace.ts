import { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { lean, withoutTenant, type Lean } from '../../lib/lean';
import type { Page } from '../../lib/pagination';
import { isEntitled } from '../core/org/activeModules';
import type { Services } from '../services';

/** Modes whose spaces the public surface shows; internal spaces never appear there. */
export const publicModes = ['public_kb', 'blog'] as const;

/**
 * Whether the anonymous surface may serve an organisation's spaces: the check of the booking storefront
 * (openStore): its cached entitlements grant the module and do not say suspended. Only the entitlements: the
 * organisation's active-modules setting shapes its workspace, while access to a module's API (the member and
 * integration surfaces of knowledge included) stays governed by the entitlements, so none is switched off here.
 */
async function servesKnowledge(services: Services, tenantId: string): Promise<boolean> {
  return isEntitled(await services.entitlements.get(tenantId), 'knowledge');
}

// Lean statements (docs/database-path.md) of the anonymous public reads. Both cross tenants by design: a space
// is found by its slug, unique across the service, before any tenant is known, and the directory lists the
// public spaces of every organisation. Only public modes, and only organisations that are not suspended (joined
// in the same round trip, as the storefront's lookup does; the entitlements are checked after, from the cache).
const OPEN_ORGANISATION = 'join organizations o on o.id = knowledge_spaces.tenant_id and o.suspended_at is null';
const publicSpaceBySlug = lean(KnowledgeSpace, {
  crossTenant: true,
  join: OPEN_ORGANISATION,
  where: `knowledge_spaces.slug = $1 and knowledge_spaces.mode in ('public_kb', 'blog')`,
  limit: 1,
});
// The directory pages by slug (unique across the service, and public already): the cursor is the slug of the
// last space of the page, so no internal identifier leaves. A slug that names no space (renamed, deleted,
// made up) is still a position: the page after it. The first page starts after '' (a plain range on the slug's
// unique index, whatever plan the prepared statement gets).
const publicSpacesPage = lean(KnowledgeSpace, {
  crossTenant: true,
  columns: ['tenantId', 'slug', 'name', 'mode', 'description', 'language'],
  join: OPEN_ORGANISATION,
  where: `knowledge_spaces.mode in ('public_kb', 'blog') and ($1::text is null or knowledge_spaces.mode = $1) and knowledge_spaces.slug > $2`,
  orderBy: 'knowledge_spaces.slug asc',
  limitParam: '$3',
});

/**
 * The public space of a slug (lean; its tenantId binds every further read), or 404 as for an unknown slug when
 * it is internal, or its organisation is suspended or not entitled to knowledge.
 */
export async function readPublicSpace(services: Services, slug: string): Promise<Lean<KnowledgeSpace>> {
  const space = await publicSpaceBySlug.one(withoutTenant(services), slug);
  if (!space || !(await servesKnowledge(services, space.tenantId))) throw notFound('Space');
  return space;
}

/** The same space as an entity of `em` (readPublicSpace's rules), for use cases that write (subscribe). */
export async function findPublicSpace(services: Services, em: Em, slug: string): Promise<KnowledgeSpace> {
  const { id } = await readPublicSpace(services, slug);
  const space = await em.findOne(KnowledgeSpace, { id }, { filters: false });
  if (!space) throw notFound('Space');
  return space;
}

export type PublicSpaceSummary = Pick<Lean<KnowledgeSpace>, 'slug' | 'name' | 'mode' | 'description' | 'language'>;

export interface PublicSpacesProps {
  /** Page size. */
  limit: number;
  /** nextCursor of the previous page: the slug the page starts after. */
  cursor?: string;
  mode?: (typeof publicModes)[number];
}

/** Rows read in a round: a page's worth and one more (to know whether more follow), at least a small batch, doubling each round a page needs more. */
const batchOf = (limit: number, round: number) => Math.min(Math.max(limit + 1, 20) * 2 ** round, 1000);
/** Rounds a page may take to skip the spaces of organisations not entitled to knowledge (a few thousand rows at most). */
const MAX_ROUNDS = 6;

/**
 * The directory: public knowledge bases and blogs of the organisations it serves, in slug order. Suspended
 * organisations are left out by the query; the spaces of one no longer entitled to knowledge are skipped
 * after it, one cached entitlement read per organisation of the batch. A page then holds at most `limit`
 * spaces (rarely fewer, when many are skipped); only a null nextCursor ends the directory.
 */
export async function listPublicSpaces(services: Services, props: PublicSpacesProps): Promise<Page<PublicSpaceSummary>> {
  const items: PublicSpaceSummary[] = [];
  let after = props.cursor ?? '';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const batch = batchOf(props.limit, round);
    const rows = await publicSpacesPage.all(withoutTenant(services), props.mode ?? null, after, batch);
    const tenants = [...new Set(rows.map((r) => r.tenantId))];
    const served = new Set((await Promise.all(tenants.map(async (t) => ((await servesKnowledge(services, t)) ? t : null)))).filter((t) => t !== null));
    for (const row of rows) {
      if (!served.has(row.tenantId)) {
        after = row.slug;
        continue;
      }
      if (items.length === props.limit) return { items, nextCursor: items[items.length - 1].slug };
      items.push({ slug: row.slug, name: row.name, mode: row.mode, description: row.description, language: row.language });
      after = row.slug;
    }
    if (rows.length < batch) return { items, nextCursor: null };
  }
  // Very many spaces skipped in a row: the page ends where the reading stopped (the next one goes on from there).
  return { items, nextCursor: after };
}
