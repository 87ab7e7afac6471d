import { KnowledgeArticle } from '../../entities/knowledge/article';
import { KnowledgeCollection } from '../../entities/knowledge/space';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { checkSpace, findCollection, findSpace } from './lookup';
import { bumpSearchVersion } from './searchCache';
import { nextSortOrder } from './sortOrder';

// A lean statement (docs/database-path.md) for the listing; collections are changed through the em below.
const collectionsOfSpace = lean(KnowledgeCollection, { where: 'space_id = $1', orderBy: 'sort_order asc, id asc', limit: 1000 });

/** A space's collections in order. */
export async function listCollections(ctx: TenantContext, spaceId: string): Promise<Lean<KnowledgeCollection>[]> {
  const [, rows] = await Promise.all([checkSpace(ctx, spaceId), collectionsOfSpace.all(ctx, spaceId)]);
  return rows;
}

export interface CollectionProps {
  name?: string;
  description?: string | null;
  sortOrder?: number;
}

/** A collection at the end of the space's collections unless sortOrder says otherwise. */
export async function createCollection(ctx: TenantContext, spaceId: string, props: CollectionProps & { name: string }): Promise<KnowledgeCollection> {
  return ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    const last = await em.findOne(KnowledgeCollection, { spaceId: space.id }, { orderBy: { sortOrder: 'desc' }, fields: ['sortOrder'] });
    return em.create(KnowledgeCollection, { tenantId: ctx.tenantId, spaceId: space.id, name: props.name.trim(), description: props.description ?? null, sortOrder: props.sortOrder ?? nextSortOrder(last) });
  });
}

export async function updateCollection(ctx: TenantContext, id: string, props: CollectionProps): Promise<KnowledgeCollection> {
  return ctx.em.transactional(async (em) => {
    const collection = await findCollection(em, id);
    if (props.name !== undefined) collection.name = props.name.trim();
    if (props.description !== undefined) collection.description = props.description;
    if (props.sortOrder !== undefined) collection.sortOrder = props.sortOrder;
    return collection;
  });
}

/** Deletes a collection; its articles stay in the space, outside any collection. */
export async function deleteCollection(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const collection = await findCollection(em, id);
    await em.nativeUpdate(KnowledgeArticle, { collectionId: collection.id }, { collectionId: null });
    em.remove(collection);
  });
  await bumpSearchVersion(ctx.services, ctx.tenantId);
}
