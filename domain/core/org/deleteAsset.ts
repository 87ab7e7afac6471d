import type { TenantContext } from '../../context';
import { purgeNodes } from '../../cloud/purge';
import { findAsset } from './assets';

/** Deletes the file for good (no trash for media): its object, its bytes in the quota and the entry (cascade). */
export async function deleteAsset(ctx: TenantContext, id: string): Promise<void> {
  const { asset } = await findAsset(ctx, id);
  await purgeNodes(ctx.services, ctx.tenantId, { ids: [asset.id] });
}
