import type { Page } from '../../lib/pagination';
import type { TenantContext } from '../context';
import { decodeCursor, pageOf, type ListProps } from './cursors';
import { readerOf, type CloudItem } from './items';
import { listedItem } from './listContents';
import { starredPage } from './store/items';

/** The caller's starred live files and folders, by name. */
export async function listStarred(ctx: TenantContext, props: ListProps): Promise<Page<CloudItem>> {
  const after = decodeCursor(props.cursor, ['text', 'uuid']);
  const rows = await starredPage(ctx.em, readerOf(ctx), { after, limit: props.limit });
  return pageOf(rows, props.limit, listedItem, (r) => [r.sortKey, r.id]);
}
