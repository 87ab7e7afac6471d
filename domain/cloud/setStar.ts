import type { NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';
import { addStar, removeStar } from './store/items';

/** Stars or unstars a live file or folder for the calling member (favourites are per member). Idempotent. */
export async function setStar(ctx: TenantContext, id: string, kind: NodeKind, starred: boolean): Promise<CloudItem> {
  await getItem(ctx, id, kind);
  await (starred ? addStar : removeStar)(ctx.em, ctx.tenantId, ctx.userId, id);
  return getItem(ctx, id, kind);
}
