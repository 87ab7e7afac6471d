import { invalidField } from '../../lib/errors';
import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { getItem, readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { searchPage, type SearchFilter } from './store/items';

export interface SearchProps extends ListProps, Omit<SearchFilter, 'modifiedFrom' | 'modifiedBefore'> {
  modifiedFrom?: string;
  modifiedBefore?: string;
}

/**
 * Live files and folders whose name contains q, of a type, by an owner, last changed in a window, of a size, everywhere
 * or within a folder's subtree; by name.
 */
export async function searchItems(ctx: TenantContext, props: SearchProps): Promise<Page<CloudItem>> {
  const modifiedFrom = props.modifiedFrom ? new Date(props.modifiedFrom) : undefined;
  const modifiedBefore = props.modifiedBefore ? new Date(props.modifiedBefore) : undefined;
  if (modifiedFrom && modifiedBefore && modifiedBefore <= modifiedFrom)
    throw invalidField('modifiedBefore', 'must be after modifiedFrom');
  if (props.minSize !== undefined && props.maxSize !== undefined && props.maxSize < props.minSize)
    throw invalidField('maxSize', 'must be at least minSize');
  if (props.folderId) await getItem(ctx, props.folderId, 'folder');
  const after = decodeCursor(props.cursor, ['text', 'uuid']);
  const rows = await searchPage(
    ctx.em,
    readerOf(ctx),
    {
      q: props.q,
      type: props.type,
      folderId: props.folderId,
      ownerId: props.ownerId,
      modifiedFrom,
      modifiedBefore,
      minSize: props.minSize,
      maxSize: props.maxSize,
    },
    { after, limit: props.limit },
  );
  return pageOf(rows, props.limit, listedItem, (r) => [r.sortKey, r.id]);
}
