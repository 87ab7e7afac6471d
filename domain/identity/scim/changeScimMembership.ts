import type { Em } from '../../../lib/db';
import { conflict } from '../../../lib/errors';
import { Membership, Role } from '../../../entities/identity/organization';
import type { Services } from '../../services';
import { emitEvent } from '../../webhooks/emitEvent';
import { dropMembership } from '../dropMembership';
import { countOwners, isOwner } from '../members';
import { seatLimit, seatLimitReached, seatsFull } from '../seats';
import { countMembers, lockSeats, membershipWithRoles } from '../store/memberships';

/** The role a provisioned account joins with (its mapped SCIM groups then decide: syncGroupRoles). */
export const PROVISIONED_ROLE = 'member';

/**
 * Makes a provisioned account a member of the organisation `tx` is bound to, or not, in the caller's transaction
 * (which holds the organisation's lock). Joining takes a seat of the tier's `seats` limit (409
 * `seat_limit_reached`, checked under the seat lock as acceptInvitation does) and the role `member`; leaving is
 * the removal of a member (dropMembership), refused for the last owner (409 `last_owner`). Answers what changed;
 * after the commit a `left` needs revokeMemberAccess.
 */
export async function changeScimMembership(
  tx: Em,
  services: Services,
  tenantId: string,
  userId: string,
  active: boolean,
): Promise<'joined' | 'left' | null> {
  const member = await membershipWithRoles(tx, userId);
  if (active === !!member) return null;
  if (member) {
    if (isOwner(member) && (await countOwners(tx)) <= 1)
      throw conflict('last_owner', 'The last owner of the organisation cannot be deprovisioned');
    await dropMembership(tx, tenantId, member, userId);
    return 'left';
  }
  const seats = seatLimit(await services.entitlements.get(tenantId));
  if (seats !== null) {
    await lockSeats(tx, tenantId);
    if (seatsFull(seats, await countMembers(tx, tenantId))) throw seatLimitReached(seats);
  }
  const role = await tx.findOneOrFail(Role, { key: PROVISIONED_ROLE });
  const joined = tx.create(Membership, { tenantId, user: userId });
  joined.roles.add(role);
  emitEvent(tx, tenantId, 'member.joined', { userId, roles: [PROVISIONED_ROLE] });
  return 'joined';
}
