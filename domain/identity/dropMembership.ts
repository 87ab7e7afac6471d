import type { Em } from '../../lib/db';
import type { Membership } from '../../entities/identity/organization';
import { emitEvent } from '../webhooks/emitEvent';
import { revokeAppPasswordsOf } from './store/appPasswords';

/**
 * What taking a membership away does in its transaction, whoever does it (a member removed or leaving, an account
 * deprovisioned by SCIM): `member.removed`, the membership and its roles gone, the member's app passwords for the
 * organisation revoked (rejoining revives none). After the commit, `revokeMemberAccess` ends their tokens.
 */
export async function dropMembership(tx: Em, tenantId: string, member: Membership, userId: string): Promise<void> {
  emitEvent(tx, tenantId, 'member.removed', { userId, roles: member.roles.getItems().map((r) => r.key) });
  tx.remove(member);
  await revokeAppPasswordsOf(tx, tenantId, userId, new Date());
}
