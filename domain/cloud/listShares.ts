import type { CloudShare } from '../../entities/cloud/share';
import type { TenantContext } from '../context';
import { getItem } from './items';
import { sharesOfNode } from './store/shares';
import type { NodeKind } from '../../entities/cloud/node';

/** The shares of a live file (or folder: its drop links), newest first (revoked ones included). */
export async function listShares(ctx: TenantContext, nodeId: string, kind: NodeKind = 'file'): Promise<CloudShare[]> {
  await getItem(ctx, nodeId, kind);
  return sharesOfNode(ctx.em, nodeId);
}
