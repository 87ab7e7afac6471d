import type { TenantContext } from '../context';
import { getItem } from './items';
import { folderPath } from './store/items';

/** The folders from the root down to this one (included). */
export async function breadcrumb(ctx: TenantContext, folderId: string): Promise<{ id: string; name: string }[]> {
  await getItem(ctx, folderId, 'folder');
  return folderPath(ctx.em, ctx.tenantId, folderId);
}
