import { invalidField } from '../../../../lib/errors';
import type { Page } from '../../../../lib/pagination';
import type { TenantContext } from '../../../context';
import { candidatePairs } from '../store/duplicates';
import { NAME_SIMILARITY, scorePair, type DuplicateReason } from './score';

export interface DuplicatePair {
  /** The two customers, the older first (ids are UUIDv7). */
  customers: [{ id: string; name: string; kind: string }, { id: string; name: string; kind: string }];
  score: number;
  reasons: DuplicateReason[];
}

/** At most this many candidate pairs of an organisation are scored per request. */
export const PAIR_CAP = 5000;

/** The cursor of a page: its offset in the scored list (which is recomputed, so pages follow the live data). */
const encode = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function decode(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const m = /^o:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw invalidField('cursor', 'is not a cursor of this list');
  return Number(m[1]);
}

/** The organisation's candidate duplicate pairs, most likely first, at least `minScore`. */
export async function listDuplicatePairs(
  ctx: TenantContext,
  props: { limit: number; cursor?: string; minScore?: number },
): Promise<Page<DuplicatePair>> {
  const offset = decode(props.cursor);
  const rows = await candidatePairs(ctx.em, ctx.tenantId, NAME_SIMILARITY, PAIR_CAP);
  const pairs: DuplicatePair[] = [];
  for (const row of rows) {
    const pair = scorePair({
      sharedKeys: row.shared,
      nameSimilarity: row.sim,
      normalisedName: row.a_nname,
      organisations: row.a_kind === 'organisation' && row.b_kind === 'organisation',
    });
    if (pair && pair.score >= (props.minScore ?? 0))
      pairs.push({
        customers: [
          { id: row.a, name: row.a_name, kind: row.a_kind },
          { id: row.b, name: row.b_name, kind: row.b_kind },
        ],
        ...pair,
      });
  }
  pairs.sort(
    (x, y) =>
      y.score - x.score ||
      x.customers[0].id.localeCompare(y.customers[0].id) ||
      x.customers[1].id.localeCompare(y.customers[1].id),
  );
  const items = pairs.slice(offset, offset + props.limit);
  return { items, nextCursor: offset + props.limit < pairs.length ? encode(offset + props.limit) : null };
}
