import type { TenantContext } from '../context';
import { fileAddress, liveStoredFile, type DownloadAddress } from './downloads';

/**
 * Download addresses of a file: `url` answers the bytes as an attachment named like the file, `inlineUrl` renders
 * them (img src, embeds). Both are addresses of this app, valid CLOUD_LINK_TTL_SECONDS, that check the file at
 * every use and redirect to a storage address valid REDIRECT_TTL_SECONDS.
 */
export async function downloadUrl(ctx: TenantContext, id: string): Promise<DownloadAddress & { inlineUrl: string }> {
  const node = await liveStoredFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  return {
    url: fileAddress(ctx.services, 'download', node.id),
    expiresAt: new Date(Date.now() + ttl * 1000),
    inlineUrl: fileAddress(ctx.services, 'inline', node.id),
  };
}
