import type { CloudShare } from '../../entities/cloud/share';
import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { getItem } from './items';
import { audit } from '../platform/audit';
import { shareAudit } from './shareAudit';
import { shareOfNode } from './store/shares';
import type { NodeKind } from '../../entities/cloud/node';

/** Revokes a share: its link answers 404 from now on. Revoking twice changes nothing. Audited `cloud.share_revoked`. */
export async function revokeShare(
  ctx: TenantContext,
  nodeId: string,
  shareId: string,
  kind: NodeKind = 'file',
): Promise<CloudShare> {
  await getItem(ctx, nodeId, kind);
  const share = await shareOfNode(ctx.em, nodeId, shareId);
  if (!share) throw notFound('Share');
  if (share.revokedAt) return share;
  share.revokedAt = new Date();
  audit(ctx.em, shareAudit(ctx, 'cloud.share_revoked', share));
  await ctx.em.flush(); // one transaction: the revocation with its entry
  return share;
}
