import { CloudShare } from '../../../entities/cloud/share';
import { Membership } from '../../../entities/identity/organization';
import type { Em } from '../../../lib/db';

/** Statements of shares (cloud_shares): links and member shares of files. */

/** Those of userIds that are members of the organisation. */
export async function membersAmong(em: Em, tenantId: string, userIds: string[]): Promise<Set<string>> {
  const members = await em.find(Membership, { tenantId, user: { $in: userIds } }, { fields: ['user'] });
  return new Set(members.map((m) => m.user.id));
}

/** The shares of a file or folder (em's organisation), newest first (revoked ones included), at most 200. */
export const sharesOfNode = (em: Em, nodeId: string) =>
  em.find(CloudShare, { nodeId }, { orderBy: { id: 'desc' }, limit: 200 });

/** A share of a file or folder (em's organisation), or null. */
export const shareOfNode = (em: Em, nodeId: string, shareId: string) => em.findOne(CloudShare, { id: shareId, nodeId });

/** The unrevoked link share of whichever organisation whose token hashes to this, or null. */
export const linkShareByTokenHash = (em: Em, tokenHash: string) =>
  em.findOne(CloudShare, { tokenHash, kind: 'link', revokedAt: null }, { filters: { tenant: false } });

export interface ExpiringShare {
  id: string;
  tenant_id: string;
  node_id: string;
  expires_at: Date;
  permission: string;
  node_kind: string;
  email: string | null;
  display_name: string | null;
  node_name: string | null;
}

/**
 * Claims the links expiring by `until` whose creators were not told yet (`expiry_notified_at` set, rows locked with
 * SKIP LOCKED so concurrent sweeps take disjoint sets), with the creator's address while they are still a member and
 * the name of the live item; at most `limit`, the soonest first.
 */
export async function claimExpiringShares(em: Em, until: Date, limit: number): Promise<ExpiringShare[]> {
  return em.execute<ExpiringShare[]>(
    `with due as (
       select id from cloud_shares
       where expiry_notified_at is null and revoked_at is null and kind = 'link' and expires_at > now() and expires_at <= ?
       order by expires_at limit ? for update skip locked
     ), claimed as (
       update cloud_shares s set expiry_notified_at = now() from due where s.id = due.id
       returning s.id, s.tenant_id, s.node_id, s.expires_at, s.permission, s.node_kind, s.created_by
     )
     select c.id, c.tenant_id, c.node_id, c.expires_at, c.permission, c.node_kind, u.email, u.display_name, n.name as node_name
     from claimed c
     left join memberships m on m.tenant_id = c.tenant_id and m.user_id = c.created_by
     left join users u on u.id = m.user_id
     left join cloud_nodes n on n.id = c.node_id and n.tenant_id = c.tenant_id and n.trashed_at is null`,
    [until, limit],
  );
}
