import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';
import { lockLiveFile, swapInVersion } from './store/versions';

/**
 * Makes a version the file's content again, in one transaction holding the file: its current content becomes a
 * version (listed first), the chosen one current. The quota is unchanged: both contents were counted and stay
 * counted (nothing is copied), so a restore never needs free space, even over quota. 404 when the file or the
 * version is not the organisation's, or the file is trashed.
 */
export async function restoreVersion(ctx: TenantContext, fileId: string, versionId: string): Promise<CloudItem> {
  const restored = await ctx.em.transactional(
    async (em) =>
      (await lockLiveFile(em, ctx.tenantId, fileId)) && (await swapInVersion(em, ctx.tenantId, fileId, versionId)),
  );
  if (!restored) throw notFound('Version');
  return getItem(ctx, fileId, 'file');
}
