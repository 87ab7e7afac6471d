import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { sharedWithPage } from './store/items';

/**
 * Live files other members shared with the caller (member shares naming them, not revoked), each once, the most
 * recently shared first.
 */
export async function listSharedWithMe(ctx: TenantContext, props: ListProps): Promise<Page<CloudItem>> {
  const after = decodeCursor(props.cursor, ['timestamptz', 'uuid']);
  const rows = await sharedWithPage(ctx.em, readerOf(ctx), { after, limit: props.limit });
  return pageOf(rows, props.limit, listedItem, (r) => [r.sortKey, r.id]);
}
