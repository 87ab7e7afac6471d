import type { CloudShare } from '../../entities/cloud/share';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem } from './items';
import { shareOfNode } from './store/shares';
import type { NodeKind } from '../../entities/cloud/node';

/** Revokes a share: its link answers 404 from now on. Revoking twice changes nothing. */
export async function revokeShare(
  ctx: TenantContext,
  nodeId: string,
  shareId: string,
  kind: NodeKind = 'file',
): Promise<CloudShare> {
  await getItem(ctx, nodeId, kind);
  const share = await shareOfNode(ctx.em, nodeId, shareId);
  if (!share) throw notFound('Share');
  share.revokedAt ??= new Date();
  await ctx.em.flush();
  return share;
}
