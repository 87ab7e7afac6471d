import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { getItem, readerOf, type CloudItem } from './items';
import { folderPage, sortType, type ListedRow, type SortKey } from './store/items';

export interface ContentsProps extends ListProps {
  sort?: SortKey;
  order?: 'asc' | 'desc';
}

/** A listed row as members see it (without its sort values). */
export const listedItem = ({ rank: _rank, sortKey: _sortKey, ...item }: ListedRow): CloudItem => item;

/**
 * A folder's live contents (root when folderId is null): folders first, then files, each sorted by name
 * (case-insensitive), size or date (last change), ascending by default; keyset-paginated.
 */
export async function listContents(
  ctx: TenantContext,
  folderId: string | null,
  props: ContentsProps,
): Promise<{ folder: CloudItem | null; page: Page<CloudItem> }> {
  const sort = props.sort ?? 'name';
  const after = decodeCursor(props.cursor, ['boolean', sortType(sort), 'uuid']);
  // The folder and the page in parallel (two pooled connections): one round trip of latency, not two.
  const [folder, rows] = await Promise.all([
    folderId ? getItem(ctx, folderId, 'folder') : null,
    folderPage(ctx.em, readerOf(ctx), folderId, { sort, desc: props.order === 'desc', after, limit: props.limit }),
  ]);
  return { folder, page: pageOf(rows, props.limit, listedItem, (r) => [String(r.rank), r.sortKey, r.id]) };
}
