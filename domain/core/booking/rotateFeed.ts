import type { TenantContext } from '../../context';
import type { SyncInfo } from './feedAddress';
import { revokeFeed } from './revokeFeed';
import { syncInfo } from './syncInfo';

/** Replaces the caller's feed address: the old one stops working at once; answers the new one. */
export async function rotateFeed(ctx: TenantContext): Promise<SyncInfo> {
  await revokeFeed(ctx);
  return syncInfo(ctx);
}
