import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { hashToken } from '../../lib/tokens';
import { CloudNode } from '../../entities/cloud/node';
import { CloudShare, type ShareKind } from '../../entities/cloud/share';
import { Membership } from '../../entities/identity/organization';
import { AppError, forbidden, invalidField, notFound } from '../../lib/errors';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import type { Services } from '../services';
import type { TenantContext } from '../context';
import { notify } from '../notifications/notify';
import { getItem } from './items';
import { checkToken, inlineSafe, servesCloud, signedToken } from './downloads';
import { mediaType } from './names';

export interface ShareFileProps {
  kind: ShareKind;
  /** Link shares: after this time the link answers 410. */
  expiresAt?: Date;
  /** Link shares: needed to open the link (argon2-hashed). */
  password?: string;
  /** Member shares: members of the organisation. */
  memberIds?: string[];
}

export interface CreatedShare {
  share: CloudShare;
  /** Link shares: the address, shown this once (only its token's hash is stored). */
  url: string | null;
}

/**
 * Shares a live file: a link (anyone holding it, optionally until expiresAt and with a password; needs
 * cloud.share, "outside the organisation") or with members (they are notified through the hub).
 */
export async function shareFile(ctx: TenantContext, fileId: string, props: ShareFileProps): Promise<CreatedShare> {
  const file = await getItem(ctx, fileId, 'file');
  let token: string | null = null;
  let memberIds: string[] = [];
  if (props.kind === 'link') {
    if (!ctx.userId || !(await ctx.services.permissions.of(ctx.tenantId, ctx.userId)).has('cloud.share')) throw forbidden('permission_denied', 'Link shares need the permission cloud.share');
    if (props.memberIds?.length) throw invalidField('memberIds', 'is for member shares only');
    if (props.expiresAt && props.expiresAt.getTime() <= Date.now()) throw invalidField('expiresAt', 'must be in the future');
    token = randomBytes(24).toString('base64url');
  } else {
    if (props.password || props.expiresAt) throw invalidField(props.password ? 'password' : 'expiresAt', 'is for link shares only');
    memberIds = [...new Set(props.memberIds ?? [])];
    if (!memberIds.length) throw invalidField('memberIds', 'must name at least one member');
    const members = await ctx.em.find(Membership, { tenantId: ctx.tenantId, user: { $in: memberIds } }, { fields: ['user'] });
    const known = new Set(members.map((m) => m.user.id));
    const strangers = memberIds.filter((id) => !known.has(id));
    if (strangers.length) throw invalidField('memberIds', `are not members of the organisation: ${strangers.join(', ')}`);
  }
  const passwordHash = props.password ? await hashPassword(props.password) : null;
  const share = await ctx.em.transactional(async (em) =>
    em.create(CloudShare, {
      tenantId: ctx.tenantId,
      nodeId: file.id,
      kind: props.kind,
      tokenHash: token ? hashToken(token) : null,
      passwordHash,
      expiresAt: props.expiresAt ?? null,
      memberIds,
      createdBy: ctx.userId,
      revokedAt: null,
    }),
  );
  void notify(ctx.services, 'cloud', [{ event: 'file.shared', tenantId: ctx.tenantId, subject: { fileId: file.id, userId: ctx.userId }, data: { kind: props.kind, memberIds, expiresAt: share.expiresAt?.toISOString() ?? null } }]);
  return { share, url: token ? shareUrl(ctx.services, token) : null };
}

export const shareUrl = (services: Services, token: string) => `${services.config.PUBLIC_URL}/api/cloud/shared/${token}`;

/** The shares of a live file, newest first (revoked ones included). */
export async function listShares(ctx: TenantContext, fileId: string): Promise<CloudShare[]> {
  await getItem(ctx, fileId, 'file');
  return ctx.em.find(CloudShare, { nodeId: fileId }, { orderBy: { id: 'desc' }, limit: 200 });
}

/** Revokes a share: its link answers 404 from now on. Revoking twice changes nothing. */
export async function revokeShare(ctx: TenantContext, fileId: string, shareId: string): Promise<CloudShare> {
  await getItem(ctx, fileId, 'file');
  const share = await ctx.em.findOne(CloudShare, { id: shareId, nodeId: fileId });
  if (!share) throw notFound('Share');
  share.revokedAt ??= new Date();
  await ctx.em.flush();
  return share;
}

export interface OpenedShare {
  file: CloudNode;
  url: string;
  expiresAt: Date;
}

/**
 * A live link share by its token: 404 for an unknown or revoked link, or an organisation suspended or not
 * entitled to cloud (servesCloud), 410 `share_expired`.
 */
async function liveShare(services: Services, token: string): Promise<CloudShare> {
  const share = await services.orm.em.fork().findOne(CloudShare, { tokenHash: hashToken(token), kind: 'link', revokedAt: null }, { filters: { tenant: false } });
  // A suspended organisation, or one no longer entitled to cloud, serves nothing through its links (404, like
  // its other public surfaces); checked before expiry and password so the answer tells nothing more.
  if (!share || !(await servesCloud(services, share.tenantId))) throw notFound('Share');
  if (share.expiresAt && share.expiresAt.getTime() <= Date.now()) throw new AppError(410, 'share_expired', 'This share link has expired');
  return share;
}

/** The live file of a share, or 404 (trashed or purged since). */
async function sharedFile(services: Services, share: CloudShare): Promise<CloudNode & { objectKey: string }> {
  const file = await services.orm.em.fork().findOne(CloudNode, { id: share.nodeId, tenantId: share.tenantId, kind: 'file', trashedAt: null }, { filters: { tenant: false } });
  if (!file?.objectKey) throw notFound('Share');
  return file as CloudNode & { objectKey: string };
}

/**
 * Opens a link share anonymously: 404, 410 as liveShare, a file no longer live 404, 401
 * `share_password_required` / 403 `share_password_invalid`. Answers the share's download address, valid
 * CLOUD_LINK_TTL_SECONDS: an address of this app naming the link and signed over the share (the proof the
 * password was given), never a storage address, whose key names the organisation.
 */
export async function openShare(services: Services, token: string, password: string | undefined): Promise<OpenedShare> {
  const share = await liveShare(services, token);
  if (share.passwordHash) {
    if (!password) throw new AppError(401, 'share_password_required', 'This share link needs its password');
    if (!(await verifyPassword(share.passwordHash, password))) throw forbidden('share_password_invalid', 'The password of this share link is wrong');
  }
  const file = await sharedFile(services, share);
  const ttl = services.config.CLOUD_LINK_TTL_SECONDS;
  return { file, url: `${shareUrl(services, token)}/download?t=${signedToken(services, 'share', share.id, ttl)}`, expiresAt: new Date(Date.now() + ttl * 1000) };
}

export interface SharedDownload {
  file: CloudNode;
  size: number;
  /** What the answer declares: the stored type when a browser may render it (INLINE_SAFE), else octet-stream. */
  contentType: string;
  body: Readable;
}

/**
 * The bytes of a share's download address, checked at every use like the link itself (revoked, expired,
 * organisation suspended, file trashed or purged: 404 or 410 at once), then t (403 `download_token_invalid` /
 * `download_token_expired`). Streamed by this app rather than redirected to the store: a storage address would
 * show the organisation's id to whoever holds the link.
 */
export async function downloadShare(services: Services, token: string, t: string | undefined): Promise<SharedDownload> {
  const share = await liveShare(services, token);
  checkToken(services, 'share', share.id, t);
  const file = await sharedFile(services, share);
  const stored = await services.storage.stat(file.objectKey);
  if (!stored) throw notFound('Share');
  return { file, size: stored.size, contentType: inlineSafe(file.contentType) ? mediaType(file.contentType) : 'application/octet-stream', body: await services.storage.get(file.objectKey) };
}
