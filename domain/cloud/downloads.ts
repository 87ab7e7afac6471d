import { createHmac } from 'node:crypto';
import { CloudNode } from '../../entities/cloud/node';
import { forbidden, notFound } from '../../lib/errors';
import type { Services } from '../services';
import type { TenantContext } from '../context';
import { isEntitled } from '../core/org/activeModules';
import { mediaType } from './names';
import { sameBytes } from '../../lib/tokens';

export interface DownloadAddress {
  url: string;
  expiresAt: Date;
}

/** Media types a browser may render from the storage address; anything else downloads (no HTML or SVG inline). */
const INLINE_SAFE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/(mp4|webm|ogg)|audio\/(mpeg|ogg|wav|webm|mp4)|application\/pdf|text\/plain)$/;

/** Whether a browser may render a file of this media type from its storage address (INLINE_SAFE). */
export const inlineSafe = (contentType: string | null | undefined) => INLINE_SAFE.test(mediaType(contentType));

/** What presignFile needs of a stored file (a cloud node). */
export interface PresignedFile {
  objectKey: string | null | undefined;
  name: string;
  contentType: string | null | undefined;
}

/**
 * Every presigned GET of a stored file goes through here, so the INLINE_SAFE rule holds for all of them. `inline`:
 * the caller wants the bytes rendered (no Content-Disposition); honoured only for a type on the list. Any other
 * type is an attachment named like the file and, where the store can (S3: response-content-type), answered as
 * application/octet-stream rather than the type the uploader declared (text/html, image/svg+xml ...).
 */
export function presignFile(services: Pick<Services, 'storage'>, file: PresignedFile, options: { expiresIn: number; inline: boolean }): Promise<string> {
  const safe = inlineSafe(file.contentType);
  return services.storage.presignDownload(file.objectKey!, {
    expiresIn: options.expiresIn,
    filename: options.inline && safe ? undefined : file.name,
    responseContentType: safe ? undefined : 'application/octet-stream',
  });
}

/**
 * Whether the anonymous surfaces of cloud (share links, inline addresses) may serve an organisation's files: its
 * cached entitlements grant cloud and do not say suspended (the check of the public knowledge base and storefront).
 */
export async function servesCloud(services: Pick<Services, 'entitlements'>, tenantId: string): Promise<boolean> {
  return isEntitled(await services.entitlements.get(tenantId), 'cloud');
}

async function liveFile(ctx: TenantContext, id: string): Promise<CloudNode> {
  const node = await ctx.em.findOne(CloudNode, { id, kind: 'file', purpose: 'file', trashedAt: null });
  if (!node?.objectKey) throw notFound('File');
  return node;
}

/** A presigned GET answering the bytes as an attachment named like the file (Content-Disposition). */
export async function downloadUrl(ctx: TenantContext, id: string): Promise<DownloadAddress & { inlineUrl: string }> {
  const node = await liveFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  const url = await presignFile(ctx.services, node, { expiresIn: ttl, inline: false });
  return { url, expiresAt: new Date(Date.now() + ttl * 1000), inlineUrl: inlineUrl(ctx.services, node.id) };
}

/**
 * For the suite's own services (documents, slides, thumbnails) fetching a file of the caller's organisation
 * server-side: a presigned GET with the file's type and size. Without Content-Disposition for the types a browser
 * may render (INLINE_SAFE); any other type is an attachment (application/octet-stream on S3) like every address
 * of the drive, since a browser may open this one too.
 */
export async function tenantDownloadUrl(ctx: TenantContext, id: string): Promise<DownloadAddress & { size: number; contentType: string | null }> {
  const node = await liveFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  const url = await presignFile(ctx.services, node, { expiresIn: ttl, inline: true });
  return { url, expiresAt: new Date(Date.now() + ttl * 1000), size: node.size, contentType: node.contentType ?? null };
}

/** The inline token's key: derived for this purpose alone (HKDF of JWT_SECRET), unlike any other signature. */
const inlineKey = (services: Services) => services.deriveSecret('cloud-inline-token');
const mac = (services: Services, fileId: string, exp: number) => createHmac('sha256', inlineKey(services)).update(`inline\n${fileId}\n${exp}`).digest('base64url');

/**
 * t = "<expiry, unix seconds>.<HMAC-SHA256(key, 'inline' \n fileId \n expiry), base64url>": a capability to
 * render one file until the expiry, for <img src> and embeds that cannot send a token.
 */
export function inlineToken(services: Services, fileId: string, ttlSeconds = services.config.CLOUD_LINK_TTL_SECONDS): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${exp}.${mac(services, fileId, exp)}`;
}

export const inlineUrl = (services: Services, fileId: string) => `${services.config.PUBLIC_URL}/api/cloud/files/${fileId}/inline?t=${inlineToken(services, fileId)}`;

/**
 * Checks t (403 `inline_token_invalid` / `inline_token_expired`), then redirects to a short-lived storage address.
 * 404 for a file no longer live, or of an organisation suspended or not entitled to cloud (servesCloud).
 */
export async function inlineAddress(services: Services, fileId: string, t: string | undefined): Promise<string> {
  const [expText, sig] = (t ?? '').split('.');
  const exp = Number(expText);
  const expected = Buffer.from(Number.isSafeInteger(exp) ? mac(services, fileId, exp) : '');
  const given = Buffer.from(sig ?? '');
  if (!expected.length || !sameBytes(given, expected)) throw forbidden('inline_token_invalid', 'The inline token is invalid');
  if (exp * 1000 < Date.now()) throw forbidden('inline_token_expired', 'The inline token has expired; ask for a new address');
  const node = await services.orm.em.fork().findOne(CloudNode, { id: fileId, kind: 'file', purpose: 'file', trashedAt: null }, { filters: { tenant: false } });
  if (!node?.objectKey || !(await servesCloud(services, node.tenantId))) throw notFound('File');
  return presignFile(services, node, { expiresIn: 60, inline: true });
}
