import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { getItem, readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { searchPage, type SearchFilter } from './store/items';

export interface SearchProps extends ListProps, SearchFilter {}

/** Live files and folders whose name contains q, of a type, everywhere or within a folder's subtree; by name. */
export async function searchItems(ctx: TenantContext, props: SearchProps): Promise<Page<CloudItem>> {
  if (props.folderId) await getItem(ctx, props.folderId, 'folder');
  const after = decodeCursor(props.cursor, ['text', 'uuid']);
  const rows = await searchPage(
    ctx.em,
    readerOf(ctx),
    { q: props.q, type: props.type, folderId: props.folderId },
    { after, limit: props.limit },
  );
  return pageOf(rows, props.limit, listedItem, (r) => [r.sortKey, r.id]);
}
