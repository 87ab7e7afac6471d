import type { CloudShare } from '../../entities/cloud/share';
import type { TenantContext } from '../context';
import { getItem } from './items';
import { sharesOfFile } from './store/shares';

/** The shares of a live file, newest first (revoked ones included). */
export async function listShares(ctx: TenantContext, fileId: string): Promise<CloudShare[]> {
  await getItem(ctx, fileId, 'file');
  return sharesOfFile(ctx.em, fileId);
}
