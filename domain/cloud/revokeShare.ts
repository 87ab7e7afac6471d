import type { CloudShare } from '../../entities/cloud/share';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem } from './items';
import { shareOfFile } from './store/shares';

/** Revokes a share: its link answers 404 from now on. Revoking twice changes nothing. */
export async function revokeShare(ctx: TenantContext, fileId: string, shareId: string): Promise<CloudShare> {
  await getItem(ctx, fileId, 'file');
  const share = await shareOfFile(ctx.em, fileId, shareId);
  if (!share) throw notFound('Share');
  share.revokedAt ??= new Date();
  await ctx.em.flush();
  return share;
}
