import type { KnowledgeCollection } from '../../entities/knowledge/space';
import type { TenantContext } from '../context';
import type { CollectionProps } from './createCollection';
import { findCollection } from './store/spaces';

/** Edits a collection (fields left out are kept). */
export async function updateCollection(
  ctx: TenantContext,
  id: string,
  props: CollectionProps,
): Promise<KnowledgeCollection> {
  return ctx.em.transactional(async (em) => {
    const collection = await findCollection(em, id);
    if (props.name !== undefined) collection.name = props.name.trim();
    if (props.description !== undefined) collection.description = props.description;
    if (props.sortOrder !== undefined) collection.sortOrder = props.sortOrder;
    return collection;
  });
}
