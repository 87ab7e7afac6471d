import type { NodeKind } from '../../entities/cloud/node';
import type { TenantContext } from '../context';
import { getItem, type CloudItem } from './items';

/** Stars or unstars a live file or folder for the calling member (favourites are per member). Idempotent. */
export async function setStar(ctx: TenantContext, id: string, kind: NodeKind, starred: boolean): Promise<CloudItem> {
  await getItem(ctx, id, kind);
  if (starred) {
    await ctx.em.execute(`insert into cloud_stars (user_id, node_id, tenant_id, created_at) values (?, ?, ?, now()) on conflict do nothing`, [ctx.userId, id, ctx.tenantId]);
  } else {
    await ctx.em.execute(`delete from cloud_stars where user_id = ? and node_id = ? and tenant_id = ?`, [ctx.userId, id, ctx.tenantId]);
  }
  return getItem(ctx, id, kind);
}
