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

/**
 * Seconds a storage address handed out by a redirect of this app (download, inline) stays valid: just enough
 * for the client to follow it. The addresses given to clients are this app's, checked at every use, so a file
 * trashed, purged or of a suspended organisation stops being served at once.
 */
export const REDIRECT_TTL_SECONDS = 60;

/**
 * Download addresses of a file: `url` answers the bytes as an attachment named like the file, `inlineUrl` renders
 * them (img src, embeds). Both are addresses of this app, valid CLOUD_LINK_TTL_SECONDS, that check the file at
 * every use and redirect to a storage address valid REDIRECT_TTL_SECONDS.
 */
export async function downloadUrl(ctx: TenantContext, id: string): Promise<DownloadAddress & { inlineUrl: string }> {
  const node = await liveFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  return { url: fileAddress(ctx.services, 'download', node.id), expiresAt: new Date(Date.now() + ttl * 1000), inlineUrl: fileAddress(ctx.services, 'inline', node.id) };
}

/**
 * For the suite's own services (documents, slides, thumbnails) fetching a file of the caller's organisation
 * server-side: the inline address with the file's type and size. It redirects to the bytes without
 * Content-Disposition for the types a browser may render (INLINE_SAFE); any other type is an attachment
 * (application/octet-stream on S3) like every address of the drive, since a browser may open this one too.
 */
export async function tenantDownloadUrl(ctx: TenantContext, id: string): Promise<DownloadAddress & { size: number; contentType: string | null }> {
  const node = await liveFile(ctx, id);
  const ttl = ctx.services.config.CLOUD_LINK_TTL_SECONDS;
  return { url: fileAddress(ctx.services, 'inline', node.id), expiresAt: new Date(Date.now() + ttl * 1000), size: node.size, contentType: node.contentType ?? null };
}

/**
 * What a token of the drive authorises: rendering a file (`inline`), downloading it (`download`), downloading the
 * file of a link share once its password was given (`share`, over the share's id). The purpose is signed, so a
 * token of one is worthless for another.
 */
export type TokenPurpose = 'inline' | 'download' | 'share';
const tokenErrors: Record<TokenPurpose, { invalid: string; expired: string; what: string }> = {
  inline: { invalid: 'inline_token_invalid', expired: 'inline_token_expired', what: 'inline token' },
  download: { invalid: 'download_token_invalid', expired: 'download_token_expired', what: 'download token' },
  share: { invalid: 'download_token_invalid', expired: 'download_token_expired', what: 'download token' },
};

/** The key of these tokens: derived for them alone (HKDF of JWT_SECRET), unlike any other signature. */
const tokenKey = (services: Services) => services.deriveSecret('cloud-inline-token');
const mac = (services: Services, purpose: TokenPurpose, id: string, exp: number) => createHmac('sha256', tokenKey(services)).update(`${purpose}\n${id}\n${exp}`).digest('base64url');

/**
 * t = "<expiry, unix seconds>.<HMAC-SHA256(key, purpose \n id \n expiry), base64url>": a capability for one
 * purpose on one file (or share) until the expiry, for links and embeds that cannot send a token.
 */
export function signedToken(services: Services, purpose: TokenPurpose, id: string, ttlSeconds = services.config.CLOUD_LINK_TTL_SECONDS): string {
  const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
  return `${exp}.${mac(services, purpose, id, exp)}`;
}

export const inlineToken = (services: Services, fileId: string, ttlSeconds?: number) => signedToken(services, 'inline', fileId, ttlSeconds);

/** 403 `<purpose>_token_invalid` for a tampered, foreign or missing t, `..._expired` past its expiry. */
export function checkToken(services: Services, purpose: TokenPurpose, id: string, t: string | undefined): void {
  const [expText, sig] = (t ?? '').split('.');
  const exp = Number(expText);
  const expected = Buffer.from(Number.isSafeInteger(exp) ? mac(services, purpose, id, exp) : '');
  const given = Buffer.from(sig ?? '');
  const errors = tokenErrors[purpose];
  if (!expected.length || !sameBytes(given, expected)) throw forbidden(errors.invalid, `The ${errors.what} is invalid`);
  if (exp * 1000 < Date.now()) throw forbidden(errors.expired, `The ${errors.what} has expired; ask for a new address`);
}

const fileAddress = (services: Services, purpose: 'inline' | 'download', fileId: string) => `${services.config.PUBLIC_URL}/api/cloud/files/${fileId}/${purpose}?t=${signedToken(services, purpose, fileId)}`;

/**
 * Checks t, then the file, and answers a storage address valid REDIRECT_TTL_SECONDS: rendered inline (a type on
 * the INLINE_SAFE list) or an attachment. 404 for a file no longer live, or of an organisation suspended or not
 * entitled to cloud (servesCloud).
 */
export async function redirectAddress(services: Services, purpose: 'inline' | 'download', fileId: string, t: string | undefined): Promise<string> {
  checkToken(services, purpose, fileId, t);
  const node = await services.orm.em.fork().findOne(CloudNode, { id: fileId, kind: 'file', purpose: 'file', trashedAt: null }, { filters: { tenant: false } });
  if (!node?.objectKey || !(await servesCloud(services, node.tenantId))) throw notFound('File');
  return presignFile(services, node, { expiresIn: REDIRECT_TTL_SECONDS, inline: purpose === 'inline' });
}
