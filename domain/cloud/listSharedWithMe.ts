import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { sharedWithPage } from './store/items';

/** A file shared with the caller, with who shared it (their latest member share naming the caller) and when. */
export interface SharedWithMe {
  item: CloudItem;
  sharedBy: string | null;
  sharedAt: Date;
}

/**
 * Live files other members shared with the caller (member shares naming them, not revoked or expired), each once,
 * the most recently shared first.
 */
export async function listSharedWithMe(ctx: TenantContext, props: ListProps): Promise<Page<SharedWithMe>> {
  const after = decodeCursor(props.cursor, ['timestamptz', 'uuid']);
  const rows = await sharedWithPage(ctx.em, readerOf(ctx), { after, limit: props.limit });
  return pageOf(
    rows,
    props.limit,
    ({ sharedBy, sharedAt, ...row }) => ({ item: listedItem(row), sharedBy, sharedAt }),
    (r) => [r.sortKey, r.id],
  );
}
