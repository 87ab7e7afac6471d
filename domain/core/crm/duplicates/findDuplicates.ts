import { isUUID } from 'class-validator';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { candidatesOf, keyedCustomer } from '../store/duplicates';
import { NAME_SIMILARITY, scorePair, type DuplicateReason } from './score';
import { customerMergedError } from './mergedCustomer';

/** A customer that may be the same party as another, why, and how likely (0-100). */
export interface Duplicate {
  customer: { id: string; name: string; kind: string };
  score: number;
  reasons: DuplicateReason[];
}

/** At most this many candidates of one customer are compared. */
const CANDIDATES = 200;

/** The customers that may be duplicates of `id`, most likely first (404 unknown, 404 `customer_merged` merged). */
export async function findDuplicates(ctx: TenantContext, id: string): Promise<Duplicate[]> {
  const target = isUUID(id) ? await keyedCustomer(ctx.em, ctx.tenantId, id) : null;
  if (!target) throw (await customerMergedError(ctx, id)) ?? notFound('Customer');
  const rows = await candidatesOf(ctx.em, ctx.tenantId, target, NAME_SIMILARITY, CANDIDATES);
  const found: Duplicate[] = [];
  for (const row of rows) {
    const pair = scorePair({
      sharedKeys: row.shared,
      nameSimilarity: row.sim,
      normalisedName: row.nname,
      organisations: row.kind === 'organisation' && target.kind === 'organisation',
    });
    if (pair) found.push({ customer: { id: row.id, name: row.name, kind: row.kind }, ...pair });
  }
  return found.sort((x, y) => y.score - x.score || x.customer.id.localeCompare(y.customer.id));
}
