import type { KnowledgeSpace } from '../../entities/knowledge/space';
import type { Lean } from '../../lib/lean';
import type { Page } from '../../lib/pagination';
import type { Services } from '../services';
import { publicModes, servesKnowledge } from './publicSpace';
import { publicSpacesAfter } from './store/spaces';

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
export async function listPublicSpaces(
  services: Services,
  props: PublicSpacesProps,
): Promise<Page<PublicSpaceSummary>> {
  const items: PublicSpaceSummary[] = [];
  let after = props.cursor ?? '';
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const batch = batchOf(props.limit, round);
    const rows = await publicSpacesAfter(services, props.mode ?? null, after, batch);
    const tenants = [...new Set(rows.map((r) => r.tenantId))];
    const served = new Set(
      (await Promise.all(tenants.map(async (t) => ((await servesKnowledge(services, t)) ? t : null)))).filter(
        (t) => t !== null,
      ),
    );
    for (const row of rows) {
      if (!served.has(row.tenantId)) {
        after = row.slug;
        continue;
      }
      if (items.length === props.limit) return { items, nextCursor: items[items.length - 1].slug };
      items.push({
        slug: row.slug,
        name: row.name,
        mode: row.mode,
        description: row.description,
        language: row.language,
      });
      after = row.slug;
    }
    if (rows.length < batch) return { items, nextCursor: null };
  }
  // Very many spaces skipped in a row: the page ends where the reading stopped (the next one goes on from there).
  return { items, nextCursor: after };
}
