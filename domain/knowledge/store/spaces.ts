import { KnowledgeArticle, KnowledgeArticleVersion, KnowledgeComment } from '../../../entities/knowledge/article';
import { KnowledgeCollection, KnowledgeSpace, type SpaceMode } from '../../../entities/knowledge/space';
import { KnowledgeDailyStat, KnowledgeSearchMiss, KnowledgeSubscriber } from '../../../entities/knowledge/subscriber';
import type { Em } from '../../../lib/db';
import { notFound } from '../../../lib/errors';
import { lean, withoutTenant, type Lean, type LeanScope } from '../../../lib/lean';
import type { Services } from '../../services';

/**
 * Statements of spaces and collections. The em lookups serve use cases that change what they read; the lean
 * statements (docs/database-path.md) reads that only present or check. A lookup by id is a 404 for another
 * organisation's id (the tenant filter of the em applies).
 */

export async function findSpace(em: Em, id: string): Promise<KnowledgeSpace> {
  const space = await em.findOne(KnowledgeSpace, { id });
  if (!space) throw notFound('Space');
  return space;
}

/** A space of any organisation by id (the public surface found it by its slug first), or 404. */
export async function findSpaceOfAnyTenant(em: Em, id: string): Promise<KnowledgeSpace> {
  const space = await em.findOne(KnowledgeSpace, { id }, { filters: false });
  if (!space) throw notFound('Space');
  return space;
}

/** The mode of a space of the em's organisation (it exists: the caller holds one of its articles). */
export const modeOfSpace = async (em: Em, id: string): Promise<SpaceMode> =>
  (await em.findOneOrFail(KnowledgeSpace, { id }, { fields: ['mode'] })).mode;

export async function findCollection(em: Em, id: string): Promise<KnowledgeCollection> {
  const collection = await em.findOne(KnowledgeCollection, { id });
  if (!collection) throw notFound('Collection');
  return collection;
}

const spaceById = lean(KnowledgeSpace, { where: 'id = $1' });
const spaceExists = lean(KnowledgeSpace, { columns: ['id'], where: 'id = $1' });

/** A space of the organisation (lean), or 404. */
export const readSpace = (scope: LeanScope, id: string): Promise<Lean<KnowledgeSpace>> =>
  spaceById.byId('Space', scope, id);

/** 404 unless the space is the organisation's (a list reads it beside its page). */
export async function checkSpace(scope: LeanScope, id: string): Promise<void> {
  if (!(await spaceExists.one(scope, id))) throw notFound('Space');
}

// With or without a mode, one prepared statement.
const spacesPage = lean(KnowledgeSpace, {
  where: '($1::text is null or mode = $1) and ($2::uuid is null or id > $2)',
  orderBy: 'id asc',
  limitParam: '$3',
});

export const spacesOldestFirst = (
  scope: LeanScope,
  mode: SpaceMode | null,
  after: string | null,
  limit: number,
): Promise<Lean<KnowledgeSpace>[]> => spacesPage.all(scope, mode, after, limit);

/** Whether any organisation has a space of this slug (they are unique across the service). */
export const spaceSlugTaken = async (em: Em, slug: string, exceptId?: string): Promise<boolean> =>
  !!(await em.findOne(
    KnowledgeSpace,
    { slug, ...(exceptId ? { id: { $ne: exceptId } } : {}) },
    { filters: false, fields: ['id'] },
  ));

/** Everything in a space (collections, articles, their versions and comments, subscribers, statistics). */
export async function deleteSpaceContents(em: Em, spaceId: string): Promise<void> {
  const articleIds = (await em.find(KnowledgeArticle, { spaceId }, { fields: ['id'] })).map((a) => a.id);
  if (articleIds.length) {
    // Versions are append-only for updates; deleting them with their article is allowed.
    await em.nativeDelete(KnowledgeArticleVersion, { articleId: { $in: articleIds } });
    await em.nativeDelete(KnowledgeComment, { articleId: { $in: articleIds } });
  }
  await em.nativeDelete(KnowledgeArticle, { spaceId });
  await em.nativeDelete(KnowledgeCollection, { spaceId });
  await em.nativeDelete(KnowledgeSubscriber, { spaceId });
  await em.nativeDelete(KnowledgeDailyStat, { spaceId });
  await em.nativeDelete(KnowledgeSearchMiss, { spaceId });
}

// Collections are changed through the em; the listing is lean.
const collectionsOfSpace = lean(KnowledgeCollection, {
  where: 'space_id = $1',
  orderBy: 'sort_order asc, id asc',
  limit: 1000,
});

export const collectionsInOrder = (scope: LeanScope, spaceId: string): Promise<Lean<KnowledgeCollection>[]> =>
  collectionsOfSpace.all(scope, spaceId);

export const lastCollectionOfSpace = (em: Em, spaceId: string): Promise<{ sortOrder: number } | null> =>
  em.findOne(KnowledgeCollection, { spaceId }, { orderBy: { sortOrder: 'desc' }, fields: ['sortOrder'] });

// The anonymous public reads. Both cross tenants by design: a space is found by its slug, unique across the
// service, before any tenant is known, and the directory lists the public spaces of every organisation. Only
// public modes, and only organisations that are not suspended (joined in the same round trip, as the
// storefront's lookup does; the entitlements are checked after, from the cache).
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

/** The public space of a slug, of an organisation that is not suspended, or null. */
export const publicSpaceOfSlug = (services: Services, slug: string): Promise<Lean<KnowledgeSpace> | null> =>
  publicSpaceBySlug.one(withoutTenant(services), slug);

/** `limit` public spaces of organisations not suspended, in slug order after `after`. */
export const publicSpacesAfter = (services: Services, mode: SpaceMode | null, after: string, limit: number) =>
  publicSpacesPage.all(withoutTenant(services), mode, after, limit);
