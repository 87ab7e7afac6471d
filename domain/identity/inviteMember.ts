import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, forbidden, invalidField } from '../../lib/errors';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { Invitation, Organization } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { normalizeEmail } from './createUser';
import { loadGrantor, requireRolesHeld } from './grants';
import { invitationExpiry } from './invitations';
import { composeMail, dispatchMails } from '../platform/mail';
import { OWNER_ROLE } from './members';
import { seatLimit, seatLimitReached, seatsFull } from './seats';
import { countPendingInvitations, lockOpenInvitations } from './store/invitations';
import { countMembers, isMemberByEmail, lockSeats } from './store/memberships';
import { roleByKey } from './store/roles';

export interface InviteMemberProps {
  /** Address the invitation is mailed to; only an account with this address can accept it. */
  email: string;
  /** Key of a role of the organisation, given on acceptance. */
  role: string;
  ip?: string | null;
}

/**
 * Mails an invitation (a single-use token valid 7 days) to join the context's organisation with a role.
 * Re-inviting an address that has an unaccepted invitation refreshes it (new token, role, expiry; the old
 * link stops working) instead of piling up invitations, also when two invitations of one address race.
 * 409 `already_member`; only owners invite owners (403 `owner_required`), and the role may hold only
 * permissions the inviter holds (403 `permission_escalation`, owners exempt; domain/identity/grants.ts),
 * checked in the transaction that writes the invitation. The tier's `seats` limit (members, owners included) is
 * checked early here: when the members plus the other pending invitations already fill it, 409
 * `seat_limit_reached` (acceptInvitation enforces it again when someone joins).
 */
export async function inviteMember(
  ctx: TenantContext,
  props: InviteMemberProps,
): Promise<{ invitation: Invitation; refreshed: boolean }> {
  const { em, services, tenantId } = ctx;
  const userId = ctx.userId!;
  const email = normalizeEmail(props.email);

  const [org, inviter, entitlements] = await Promise.all([
    em.findOneOrFail(Organization, { id: tenantId }),
    em.findOneOrFail(User, { id: userId }),
    services.entitlements.get(tenantId),
  ]);
  const seats = seatLimit(entitlements);
  const token = newOpaqueToken();
  const fields = { tokenHash: hashToken(token), invitedById: userId, expiresAt: invitationExpiry() };
  // An address has at most one unaccepted invitation per organisation (a partial unique index). It is locked
  // while refreshed, so an acceptance running meanwhile either reads the new role or commits first, and then
  // the membership check below, after the lock, sees it.
  const write = () =>
    em.transactional(async (tx) => {
      const role = await roleByKey(tx, props.role);
      if (!role) throw invalidField('role', 'must be the key of a role of this organisation');
      const grantor = await loadGrantor(tx, userId);
      if (role.key === OWNER_ROLE && !grantor.owner)
        throw forbidden('owner_required', 'Only owners can invite an owner');
      requireRolesHeld(grantor, [role], 'Inviting with');
      const [open] = await lockOpenInvitations(tx, email);
      if (await isMemberByEmail(tx, email))
        throw conflict('already_member', `${email} is already a member of this organisation`);
      if (seats !== null) {
        // After the invitation row's lock, as in acceptInvitation: serialised with acceptances and other invitations.
        await lockSeats(tx, tenantId);
        const [members, pending] = await Promise.all([
          countMembers(tx, tenantId),
          countPendingInvitations(tx, tenantId, open?.id),
        ]);
        if (seatsFull(seats, members + pending)) throw seatLimitReached(seats);
      }
      const invitation = open
        ? Object.assign(open, { role, ...fields })
        : tx.create(Invitation, { tenantId, email, role, ...fields });
      const mail = composeMail(tx, services, {
        to: email,
        tenantId,
        template: 'invitation',
        data: { organization: org.name, inviter: inviter.displayName, token },
      });
      audit(tx, {
        action: 'org.invitation_sent',
        actorId: userId,
        tenantId,
        targetType: 'invitation',
        targetId: invitation.id,
        ip: props.ip,
        data: { email, role: role.key, refreshed: !!open },
      });
      return { invitation, refreshed: !!open, mail };
    });
  let written: Awaited<ReturnType<typeof write>>;
  try {
    written = await write();
  } catch (err) {
    // Two first invitations of one address raced: the loser refreshes the winner's.
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
    written = await write();
  }
  await dispatchMails(services, [written.mail]);
  return { invitation: written.invitation, refreshed: written.refreshed };
}
