import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { getCustomer } from './getCustomer';
import { relationOf } from './store/relations';

/** Removes a relation from either of its ends (404 when the relation does not involve the customer). */
export async function removeRelation(ctx: TenantContext, customerId: string, relationId: string): Promise<void> {
  await getCustomer(ctx, customerId);
  const relation = await relationOf(ctx.em, customerId, relationId);
  if (!relation) throw notFound('Relation');
  await ctx.em.remove(relation).flush();
}
