import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import type { Services } from '../services';
import { liveStoredFile, REDIRECT_TTL_SECONDS, servesCloud } from './downloads';
import { currentPreview, currentPreviewOfAnyTenant } from './store/previews';
import { checkToken, signedToken } from './tokens';

export interface PreviewAddress {
  url: string;
  width: number;
  height: number;
  expiresAt: Date;
}

/**
 * The address of a file's thumbnail (WebP, at most PREVIEW_SIZE pixels on its longest side): this app's, valid
 * CLOUD_LINK_TTL_SECONDS, checked at every use like the download addresses. 404 `not_found` while none is ready for
 * the current content (being made, or the content is not an image the worker decodes): show an icon instead.
 */
export async function previewUrl(ctx: TenantContext, id: string): Promise<PreviewAddress> {
  await liveStoredFile(ctx, id);
  const preview = await currentPreview(ctx.em, ctx.tenantId, id);
  if (!preview) throw notFound('Preview');
  const { services } = ctx;
  return {
    url: `${services.config.PUBLIC_URL}/api/cloud/files/${id}/preview?t=${signedToken(services, 'preview', id)}`,
    width: preview.width,
    height: preview.height,
    expiresAt: new Date(Date.now() + services.config.CLOUD_LINK_TTL_SECONDS * 1000),
  };
}

/** Checks t, then that the preview is still the file's current one, and answers its storage address (rendered inline). */
export async function redirectPreview(services: Services, fileId: string, t: string | undefined): Promise<string> {
  checkToken(services, 'preview', fileId, t);
  const preview = await currentPreviewOfAnyTenant(services.orm.em.fork(), fileId);
  if (!preview || !(await servesCloud(services, preview.tenant_id))) throw notFound('Preview');
  return services.storage.presignDownload(preview.object_key, { expiresIn: REDIRECT_TTL_SECONDS });
}
