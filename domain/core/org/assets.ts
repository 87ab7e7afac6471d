import { Asset } from '../../../entities/core/asset';
import { CloudNode } from '../../../entities/cloud/node';
import type { Lean } from '../../../lib/lean';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { presignFile } from '../../cloud/downloads';

/** Cloud purposes of the media library's files (hidden from the drive, counted in the quota). */
export const ASSET_PURPOSES = ['asset', 'image'] as const;

export type AssetPurpose = (typeof ASSET_PURPOSES)[number];

/** Image types the library accepts for /api/images (no SVG: it can carry scripts). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'];

export interface MediaAsset {
  asset: Lean<Asset>;
  node: Lean<CloudNode>;
  /** Presigned GET of the bytes (images of IMAGE_TYPES render inline, any other file downloads as an attachment). */
  url: string;
  urlExpiresAt: Date;
}

export interface AssetUploadProps {
  name: string;
  size: number;
  contentType: string;
}

export async function present(ctx: TenantContext, asset: Lean<Asset>, node: Lean<CloudNode>): Promise<MediaAsset> {
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  // The drive's rule (presignFile): only an image of a type a browser renders safely is served inline.
  const url = await presignFile(ctx.services, node, { expiresIn: ttl, inline: asset.kind === 'image' });
  return { asset, node, url, urlExpiresAt: new Date(Date.now() + ttl * 1000) };
}

/** The entry and its cloud file as entities (to change them), or 404. */
export async function findAsset(ctx: TenantContext, id: string): Promise<{ asset: Asset; node: CloudNode }> {
  const asset = await ctx.em.findOne(Asset, { id });
  const node = asset && (await ctx.em.findOne(CloudNode, { id: asset.id }));
  if (!asset || !node) throw notFound('Asset');
  return { asset, node };
}
