import { createHash } from 'node:crypto';
import type { CloudNode } from '../../entities/cloud/node';
import type { CloudShare } from '../../entities/cloud/share';
import { AppError, notFound } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import type { Services } from '../services';
import { servesCloud } from './downloads';
import { isExpired } from './shareRules';
import { liveFileOf } from './store/nodes';
import { linkShareByTokenHash } from './store/shares';

/** The address of a link share (its token is the capability). */
export const shareUrl = (services: Services, token: string) =>
  `${services.config.PUBLIC_URL}/api/cloud/shared/${token}`;

/**
 * What a link's addresses (t) are signed over: the share and its password as it is now, so setting, changing or
 * removing the password ends the addresses opened before (a changed expiry or permission is checked at every use).
 */
export const shareProof = (share: Pick<CloudShare, 'id' | 'passwordHash'>) =>
  share.passwordHash
    ? `${share.id}.${createHash('sha256').update(share.passwordHash).digest('base64url').slice(0, 16)}`
    : share.id;

/**
 * A live link share by its token: 404 for an unknown or revoked link, or an organisation suspended or not
 * entitled to cloud (servesCloud), 410 `share_expired`.
 */
export async function liveShare(services: Services, token: string): Promise<CloudShare> {
  const share = await linkShareByTokenHash(services.orm.em.fork(), hashToken(token));
  // A suspended organisation, or one no longer entitled to cloud, serves nothing through its links (404, like
  // its other public surfaces); checked before expiry and password so the answer tells nothing more.
  if (!share || !(await servesCloud(services, share.tenantId))) throw notFound('Share');
  if (isExpired(share)) throw new AppError(410, 'share_expired', 'This share link has expired');
  return share;
}

/** The live file of a share, or 404 (trashed or purged since). */
export async function sharedFile(services: Services, share: CloudShare): Promise<CloudNode & { objectKey: string }> {
  const file = await liveFileOf(services.orm.em.fork(), share.tenantId, share.nodeId);
  if (!file?.objectKey) throw notFound('Share');
  return file as CloudNode & { objectKey: string };
}
