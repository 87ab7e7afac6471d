import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { hashToken } from '../../lib/tokens';
import { Invitation, Membership } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { audit } from './audit';
import { isPending } from './invitations';
import { withOrganizations, type MyOrganization } from './listMyOrganizations';

export interface AcceptInvitationProps {
  /** The signed-in user accepting. */
  userId: string;
  /** The mailed token, or the invitation's id (from GET /orgs/my-invites). */
  by: { token: string } | { invitationId: string };
  ip?: string | null;
}

/**
 * Joins an organisation through an invitation addressed to the caller's e-mail, with the invitation's role.
 * By id, someone else's invitation is 404 like an unknown one (ids must not tell which invitations exist); by
 * the mailed token, whose holder read the mail, it is 403 `invitation_email_mismatch` so they know to sign in
 * with the invited address. Accepting with the token proves the mailbox, so it also confirms the address.
 * 409 `already_member`; unknown, accepted or expired: 404.
 */
export async function acceptInvitation(services: Services, props: AcceptInvitationProps): Promise<MyOrganization> {
  const em = services.orm.em.fork();
  const user = await em.findOneOrFail(User, { id: props.userId });
  // By id, the caller's own invitations are all there is: someone else's is not found, by the same query as an unknown id.
  const where = 'token' in props.by ? { tokenHash: hashToken(props.by.token) } : { id: props.by.invitationId, email: user.email };
  const invitation = await em.findOne(Invitation, where, { populate: ['role'], filters: { tenant: false } });
  if (!invitation) throw notFound('Invitation');
  if (invitation.email !== user.email) throw forbidden('invitation_email_mismatch', 'This invitation was sent to another e-mail address');
  const alreadyMember = () => conflict('already_member', 'You are already a member of this organisation');
  if (await em.count(Membership, { tenantId: invitation.tenantId, user }, { filters: { tenant: false } })) throw alreadyMember();
  if (!isPending(invitation)) throw notFound('Invitation');

  const membership = em.create(Membership, { tenantId: invitation.tenantId, user });
  membership.roles.add(invitation.role);
  invitation.acceptedAt = new Date();
  invitation.acceptedById = user.id;
  if ('token' in props.by) user.emailConfirmedAt ??= new Date();
  audit(em, { action: 'org.invitation_accepted', actorId: user.id, tenantId: invitation.tenantId, targetType: 'invitation', targetId: invitation.id, ip: props.ip, data: { role: invitation.role.key } });
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw alreadyMember();
    throw err;
  }
  await services.permissions.invalidate(invitation.tenantId, user.id);
  const [mine] = await withOrganizations(services, [membership]);
  return mine;
}
