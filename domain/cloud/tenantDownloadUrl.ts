import type { TenantContext } from '../context';
import { fileAddress, liveStoredFile, type DownloadAddress } from './downloads';

/**
 * For the suite's own services (documents, slides, thumbnails) fetching a file of the caller's organisation
 * server-side: the inline address with the file's type and size. It redirects to the bytes without
 * Content-Disposition for the types a browser may render (INLINE_SAFE); any other type is an attachment
 * (application/octet-stream on S3) like every address of the drive, since a browser may open this one too.
 */
export async function tenantDownloadUrl(
  ctx: TenantContext,
  id: string,
): Promise<DownloadAddress & { size: number; contentType: string | null }> {
  const node = await liveStoredFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  return {
    url: fileAddress(ctx.services, 'inline', node.id),
    expiresAt: new Date(Date.now() + ttl * 1000),
    size: node.size,
    contentType: node.contentType ?? null,
  };
}
