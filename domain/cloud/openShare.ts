import type { CloudNode } from '../../entities/cloud/node';
import { AppError, forbidden } from '../../lib/errors';
import { verifyPassword } from '../../lib/passwords';
import type { Services } from '../services';
import { liveShare, sharedFile, shareUrl } from './linkShare';
import { signedToken } from './tokens';

export interface OpenedShare {
  file: CloudNode;
  url: string;
  expiresAt: Date;
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
    if (!(await verifyPassword(share.passwordHash, password)))
      throw forbidden('share_password_invalid', 'The password of this share link is wrong');
  }
  const file = await sharedFile(services, share);
  const ttl = services.config.CLOUD_LINK_TTL_SECONDS;
  return {
    file,
    url: `${shareUrl(services, token)}/download?t=${signedToken(services, 'share', share.id, ttl)}`,
    expiresAt: new Date(Date.now() + ttl * 1000),
  };
}
