import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { addUsage } from './store/usage';
import { deleteVersions, lockLiveFile, lockVersion } from './store/versions';

/**
 * Deletes a version for good, in one transaction holding it: its object, then its row and the bytes it held in
 * the quota (a failure rolls the row back; deleting a missing object succeeds, so a retry is safe). 404 when the
 * file or the version is not the organisation's, or the file is trashed (its versions go with its purge).
 */
export async function deleteVersion(ctx: TenantContext, fileId: string, versionId: string): Promise<void> {
  const deleted = await ctx.em.transactional(async (em) => {
    if (!(await lockLiveFile(em, ctx.tenantId, fileId))) return false;
    const version = await lockVersion(em, ctx.tenantId, fileId, versionId);
    if (!version) return false;
    await ctx.services.storage.remove(version.object_key);
    await deleteVersions(em, ctx.tenantId, [version.id]);
    await addUsage(em, ctx.tenantId, -Number(version.size), version.category ?? 'other');
    return true;
  });
  if (!deleted) throw notFound('Version');
}
