import { Asset, type AssetKind } from '../../../entities/core/asset';
import { CloudUpload } from '../../../entities/cloud/upload';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { mediaType } from '../../cloud/names';
import { completeUpload } from '../../cloud/uploads';
import { insertAsset } from './store';
import { ASSET_PURPOSES, IMAGE_TYPES, type MediaAsset } from './assets';
import { getAsset } from './getAsset';

/**
 * Step 3: the cloud confirmation (size and type checked, reservation turned into used bytes), then the
 * library entry. Only uploads started through the media routes qualify (a drive upload: 404). Confirming
 * again answers the same entry.
 */
export async function confirmAsset(
  ctx: TenantContext,
  uploadId: string,
  alt: string | null,
): Promise<{ media: MediaAsset; created: boolean }> {
  const pending = await ctx.em.findOne(CloudUpload, { id: uploadId });
  if (pending && !(ASSET_PURPOSES as readonly string[]).includes(pending.purpose)) throw notFound('Upload');
  if (!pending) {
    const existing = await ctx.em.findOne(Asset, { id: uploadId });
    if (existing) return { media: await getAsset(ctx, existing.id), created: false };
  }
  const { node } = await completeUpload(ctx, uploadId);
  if (!(ASSET_PURPOSES as readonly string[]).includes(node.purpose)) throw notFound('Upload');
  // Images are the types /api/images takes (IMAGE_TYPES); any other file, an SVG included (it can carry scripts), is a `file`.
  const kind: AssetKind = IMAGE_TYPES.includes(mediaType(node.contentType)) ? 'image' : 'file';
  await insertAsset(ctx.em, ctx.tenantId, { id: node.id, kind, alt, createdBy: ctx.userId });
  return { media: await getAsset(ctx, node.id), created: true };
}
