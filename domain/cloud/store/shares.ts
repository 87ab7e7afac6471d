import { CloudShare } from '../../../entities/cloud/share';
import { Membership } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';

/** Statements of shares (cloud_shares): links and member shares of files. */

/** Those of userIds that are members of the organisation. */
export async function membersAmong(em: Em, tenantId: string, userIds: string[]): Promise<Set<string>> {
  const members = await em.find(Membership, { tenantId, user: { $in: userIds } }, { fields: ['user'] });
  return new Set(members.map((m) => m.user.id));
}

/** The shares of a file (em's organisation), newest first (revoked ones included), at most 200. */
export const sharesOfFile = (em: Em, fileId: string) =>
  em.find(CloudShare, { nodeId: fileId }, { orderBy: { id: 'desc' }, limit: 200 });

/** A share of a file (em's organisation), or null. */
export const shareOfFile = (em: Em, fileId: string, shareId: string) =>
  em.findOne(CloudShare, { id: shareId, nodeId: fileId });

/** The unrevoked link share of whichever organisation whose token hashes to this, or null. */
export const linkShareByTokenHash = (em: Em, tokenHash: string) =>
  em.findOne(CloudShare, { tokenHash, kind: 'link', revokedAt: null }, { filters: { tenant: false } });
