import type { Em } from '../../lib/db';
import type { Promotion } from '../../entities/billing/promotion';
import { promotionsAfter } from './store';

/** Promotions by id, a page of `limit` after `cursor`. */
export async function listPromotions(
  em: Em,
  props: { limit: number; cursor?: string },
): Promise<{ items: Promotion[]; nextCursor: string | null }> {
  const items = await promotionsAfter(em, { limit: props.limit + 1, cursor: props.cursor });
  const page = items.slice(0, props.limit);
  return { items: page, nextCursor: items.length > props.limit ? page.at(-1)!.id : null };
}
