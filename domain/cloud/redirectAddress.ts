import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import { presignFile, REDIRECT_TTL_SECONDS, servesCloud } from './downloads';
import { liveFileOfAnyTenant } from './store/nodes';
import { checkToken } from './tokens';

/**
 * Checks t, then the file, and answers a storage address valid REDIRECT_TTL_SECONDS: rendered inline (a type on
 * the INLINE_SAFE list) or an attachment. 404 for a file no longer live, or of an organisation suspended or not
 * entitled to cloud (servesCloud).
 */
export async function redirectAddress(
  services: Services,
  purpose: 'inline' | 'download',
  fileId: string,
  t: string | undefined,
): Promise<string> {
  checkToken(services, purpose, fileId, t);
  const node = await liveFileOfAnyTenant(services.orm.em.fork(), fileId);
  if (!node?.objectKey || !(await servesCloud(services, node.tenantId))) throw notFound('File');
  return presignFile(services, node, { expiresIn: REDIRECT_TTL_SECONDS, inline: purpose === 'inline' });
}
