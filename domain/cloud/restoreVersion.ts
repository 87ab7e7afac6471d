import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';
import { requestPreview } from './requestPreview';
import { liveFile } from './store/nodes';
import { lockLiveFile, swapInVersion } from './store/versions';
import { refuseDavLocked } from './refuseDavLocked';

/**
 * Makes a version the file's content again, in one transaction holding the file: its current content becomes a
 * version (listed first), the chosen one current. The quota is unchanged: both contents were counted and stay
 * counted (nothing is copied), so a restore never needs free space, even over quota. Its thumbnail is made again. 404 when the file or the
 * version is not the organisation's, or the file is trashed.
 */
export async function restoreVersion(ctx: TenantContext, fileId: string, versionId: string): Promise<CloudItem> {
  await refuseDavLocked(ctx, [{ nodeId: fileId }]);
  const restored = await ctx.em.transactional(
    async (em) =>
      (await lockLiveFile(em, ctx.tenantId, fileId)) && (await swapInVersion(em, ctx.tenantId, fileId, versionId)),
  );
  if (!restored) throw notFound('Version');
  const file = await liveFile(ctx.em, fileId);
  if (file) requestPreview(ctx.services, file);
  return getItem(ctx, fileId, 'file');
}
