import type { KnowledgeCollection } from '../../entities/knowledge/space';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { checkSpace, collectionsInOrder } from './store/spaces';

/** A space's collections in order. */
export async function listCollections(ctx: TenantContext, spaceId: string): Promise<Lean<KnowledgeCollection>[]> {
  const [, rows] = await Promise.all([checkSpace(ctx, spaceId), collectionsInOrder(ctx, spaceId)]);
  return rows;
}
