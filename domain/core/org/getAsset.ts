import type { TenantContext } from '../../context';
import { findAsset, present, type MediaAsset } from './assets';

export async function getAsset(ctx: TenantContext, id: string): Promise<MediaAsset> {
  const { asset, node } = await findAsset(ctx, id);
  return present(ctx, asset, node);
}
