import { Asset, type AssetKind } from '../../../entities/core/asset';
import { CloudNode } from '../../../entities/cloud/node';
import { CloudUpload } from '../../../entities/cloud/upload';
import type { Lean } from '../../../lib/lean';
import { toPage, type Page, type PageProps } from '../../../lib/pagination';
import { invalidField, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { presignFile } from '../../cloud/downloads';
import { mediaType, sanitizeName } from '../../cloud/names';
import { purgeNodes } from '../../cloud/purge';
import { completeUpload, startUpload, type StartedUpload } from '../../cloud/uploads';
import { assetsPage, insertAsset, nodesById } from './store';

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

/**
 * Step 1 of a media upload: the cloud module's own signed upload (quota reserved, server-chosen key), with
 * the purpose `image` (images only) or `asset` (any file). Confirm with confirmAsset.
 */
export async function startAssetUpload(ctx: TenantContext, props: AssetUploadProps, purpose: AssetPurpose): Promise<StartedUpload> {
  if (purpose === 'image' && !IMAGE_TYPES.includes(props.contentType.split(';')[0].trim().toLowerCase())) {
    throw invalidField('contentType', `must be one of ${IMAGE_TYPES.join(', ')}`);
  }
  return startUpload(ctx, { ...props, purpose });
}

async function present(ctx: TenantContext, asset: Lean<Asset>, node: Lean<CloudNode>): Promise<MediaAsset> {
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  // The drive's rule (presignFile): only an image of a type a browser renders safely is served inline.
  const url = await presignFile(ctx.services, node, { expiresIn: ttl, inline: asset.kind === 'image' });
  return { asset, node, url, urlExpiresAt: new Date(Date.now() + ttl * 1000) };
}

/**
 * Step 3: the cloud confirmation (size and type checked, reservation turned into used bytes), then the
 * library entry. Only uploads started through the media routes qualify (a drive upload: 404). Confirming
 * again answers the same entry.
 */
export async function confirmAsset(ctx: TenantContext, uploadId: string, alt: string | null): Promise<{ media: MediaAsset; created: boolean }> {
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

/** The entry and its cloud file as entities (to change them), or 404. */
async function findAsset(ctx: TenantContext, id: string): Promise<{ asset: Asset; node: CloudNode }> {
  const asset = await ctx.em.findOne(Asset, { id });
  const node = asset && (await ctx.em.findOne(CloudNode, { id: asset.id }));
  if (!asset || !node) throw notFound('Asset');
  return { asset, node };
}

export async function getAsset(ctx: TenantContext, id: string): Promise<MediaAsset> {
  const { asset, node } = await findAsset(ctx, id);
  return present(ctx, asset, node);
}

/** The library, newest first, optionally one kind; keyset-paginated (an index scan on tenant_id, kind, id). */
export async function listAssets(ctx: TenantContext, props: PageProps & { kind?: AssetKind }): Promise<Page<MediaAsset>> {
  const page = toPage(await assetsPage.all(ctx, props.kind ?? null, props.cursor ?? null, props.limit + 1), props.limit);
  const nodes = new Map((page.items.length ? await nodesById.all(ctx, page.items.map((a) => a.id)) : []).map((n) => [n.id, n]));
  const items = await Promise.all(page.items.filter((a) => nodes.has(a.id)).map((a) => present(ctx, a, nodes.get(a.id)!)));
  return { items, nextCursor: page.nextCursor };
}

/** Renames (sanitised like the drive's names) or changes the alternative text. */
export async function updateAsset(ctx: TenantContext, id: string, props: { name?: string; alt?: string | null }): Promise<MediaAsset> {
  const { asset, node } = await findAsset(ctx, id);
  if (props.name !== undefined) node.name = sanitizeName(props.name);
  if (props.alt !== undefined) asset.alt = props.alt;
  await ctx.em.flush();
  return present(ctx, asset, node);
}

/** Deletes the file for good (no trash for media): its object, its bytes in the quota and the entry (cascade). */
export async function deleteAsset(ctx: TenantContext, id: string): Promise<void> {
  const { asset } = await findAsset(ctx, id);
  await purgeNodes(ctx.services, ctx.tenantId, { ids: [asset.id] });
}
