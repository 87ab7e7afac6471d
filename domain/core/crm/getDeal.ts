import { isUUID } from 'class-validator';
import { Deal, DealEvent } from '../../../entities/core/deal';
import { notFound } from '../../../lib/errors';
import type { Lean } from '../../../lib/lean';
import type { TenantContext } from '../../context';
import { dealById, dealHistory } from './store/deals';

/** A deal with its history, oldest event first (404 as findDeal's). */
export async function getDeal(
  ctx: TenantContext,
  id: string,
): Promise<{ deal: Lean<Deal>; history: Lean<DealEvent>[] }> {
  if (!isUUID(id)) throw notFound('Deal');
  const [deal, history] = await Promise.all([dealById.one(ctx, id), dealHistory.all(ctx, id)]);
  if (!deal) throw notFound('Deal');
  return { deal, history };
}
