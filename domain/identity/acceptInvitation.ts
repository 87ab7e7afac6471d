import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { Membership } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { emitEvent } from '../webhooks/emitEvent';
import { isPending } from './invitations';
import { withOrganizations, type MyOrganization } from './myOrganizations';
import { seatLimit, seatLimitReached, seatsFull } from './seats';
import { countMembers, isMemberOf, lockSeats } from './store/memberships';
import { lockInvitation } from './store/invitations';

export interface AcceptInvitationProps {
  /** The signed-in user accepting. */
  userId: string;
  /** The mailed token, or the invitation's id (from GET /orgs/my-invites). */
  by: { token: string } | { invitationId: string };
  ip?: string | null;
}

/**
 * Joins an organisation through an invitation addressed to the caller's e-mail, with the invitation's role.
 * By id, the caller's address must be confirmed (403 `email_not_confirmed`): signing in works before
 * confirmation, so an unconfirmed account proves nothing about the mailbox the invitation was sent to. By id,
 * someone else's invitation is 404 like an unknown one (ids must not tell which invitations exist); by the
 * mailed token, whose holder read the mail, it is 403 `invitation_email_mismatch` so they know to sign in with
 * the invited address. Accepting with the token proves the mailbox, so it also confirms the address.
 * 409 `already_member`; unknown, revoked, accepted or expired: 404. 409 `seat_limit_reached` when the
 * organisation already has the members its tier's `seats` limit allows (owners included; checked under a lock
 * per organisation, so concurrent acceptances cannot pass it together); the invitation stays pending.
 * Emits `member.joined` in the transaction of the membership.
 */
export async function acceptInvitation(services: Services, props: AcceptInvitationProps): Promise<MyOrganization> {
  const alreadyMember = () => conflict('already_member', 'You are already a member of this organisation');
  const byToken = 'token' in props.by;
  let membership: Membership;
  try {
    membership = await services.orm.em.fork().transactional(async (tx) => {
      const user = await tx.findOneOrFail(User, { id: props.userId });
      if (!byToken && !user.emailConfirmedAt)
        throw forbidden(
          'email_not_confirmed',
          'Confirm your e-mail address first, or accept with the link of the invitation mail',
        );
      // By id, the caller's own invitations are all there is: someone else's is not found, by the same query as an unknown id.
      // Locked until the membership commits: a concurrent revoke or re-invite (new role and token) is applied
      // wholly before (this read then sees it) or after (it then finds the invitation accepted).
      const invitation = await lockInvitation(
        tx,
        'token' in props.by ? props.by : { id: props.by.invitationId, email: user.email },
      );
      if (!invitation) throw notFound('Invitation');
      if (invitation.email !== user.email)
        throw forbidden('invitation_email_mismatch', 'This invitation was sent to another e-mail address');
      if (await isMemberOf(tx, invitation.tenantId, user)) throw alreadyMember();
      if (!isPending(invitation)) throw notFound('Invitation');
      const seats = seatLimit(await services.entitlements.get(invitation.tenantId));
      if (seats !== null) {
        // After the invitation row's lock (inviteMember takes them in the same order).
        await lockSeats(tx, invitation.tenantId);
        if (seatsFull(seats, await countMembers(tx, invitation.tenantId))) throw seatLimitReached(seats);
      }
      await tx.populate(invitation, ['role'], { filters: { tenant: false } });

      const joined = tx.create(Membership, { tenantId: invitation.tenantId, user });
      joined.roles.add(invitation.role);
      invitation.acceptedAt = new Date();
      invitation.acceptedById = user.id;
      if (byToken) user.emailConfirmedAt ??= new Date();
      emitEvent(tx, invitation.tenantId, 'member.joined', { userId: user.id, roles: [invitation.role.key] });
      audit(tx, {
        action: 'org.invitation_accepted',
        actorId: user.id,
        tenantId: invitation.tenantId,
        targetType: 'invitation',
        targetId: invitation.id,
        ip: props.ip,
        data: { role: invitation.role.key },
      });
      return joined;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyMember();
    throw err;
  }
  await services.permissions.invalidate(membership.tenantId, props.userId);
  const [mine] = await withOrganizations(services, [membership]);
  return mine;
}
