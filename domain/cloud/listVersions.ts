import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { liveFile } from './store/nodes';
import { versionsOf, type ListedVersion } from './store/versions';

/** The previous contents of a live file of the drive, the most recently replaced first (404 for any other id). */
export async function listVersions(ctx: TenantContext, fileId: string): Promise<ListedVersion[]> {
  if (!(await liveFile(ctx.em, fileId))) throw notFound('File');
  return versionsOf(ctx.em, ctx.tenantId, fileId);
}
