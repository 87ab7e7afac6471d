import { KnowledgeCollection } from '../../entities/knowledge/space';
import type { TenantContext } from '../context';
import { nextSortOrder } from './sortOrder';
import { findSpace, lastCollectionOfSpace } from './store/spaces';

export interface CollectionProps {
  name?: string;
  description?: string | null;
  sortOrder?: number;
}

/** A collection at the end of the space's collections unless sortOrder says otherwise. */
export async function createCollection(
  ctx: TenantContext,
  spaceId: string,
  props: CollectionProps & { name: string },
): Promise<KnowledgeCollection> {
  return ctx.em.transactional(async (em) => {
    const space = await findSpace(em, spaceId);
    const last = await lastCollectionOfSpace(em, space.id);
    return em.create(KnowledgeCollection, {
      tenantId: ctx.tenantId,
      spaceId: space.id,
      name: props.name.trim(),
      description: props.description ?? null,
      sortOrder: props.sortOrder ?? nextSortOrder(last),
    });
  });
}
