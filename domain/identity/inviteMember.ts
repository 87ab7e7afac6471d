import { conflict, forbidden, invalidField } from '../../lib/errors';
import { hashToken, newOpaqueToken } from '../../lib/tokens';
import { Invitation, Membership, Organization, Role } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { TenantContext } from '../context';
import { audit } from './audit';
import { normalizeEmail } from './createUser';
import { invitationExpiry } from './invitations';
import { composeMail, dispatchMails } from './mail';
import { isOwnerMember, OWNER_ROLE } from './members';

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
 * link stops working) instead of piling up invitations. 409 `already_member`; only owners invite owners.
 */
export async function inviteMember(ctx: TenantContext, props: InviteMemberProps): Promise<{ invitation: Invitation; refreshed: boolean }> {
  const { em, services, tenantId } = ctx;
  const userId = ctx.userId!;
  const email = normalizeEmail(props.email);
  const role = await em.findOne(Role, { key: props.role });
  if (!role) throw invalidField('role', 'must be the key of a role of this organisation');
  if (role.key === OWNER_ROLE && !(await isOwnerMember(em, userId))) throw forbidden('owner_required', 'Only owners can invite an owner');
  if (await em.count(Membership, { user: { email } })) throw conflict('already_member', `${email} is already a member of this organisation`);

  const [org, inviter, [open]] = await Promise.all([
    em.findOneOrFail(Organization, { id: tenantId }),
    em.findOneOrFail(User, { id: userId }),
    em.find(Invitation, { email, acceptedAt: null }, { orderBy: { id: 'desc' }, limit: 1 }),
  ]);
  const token = newOpaqueToken();
  const fields = { role, tokenHash: hashToken(token), invitedById: userId, expiresAt: invitationExpiry() };
  const invitation = open ? Object.assign(open, fields) : em.create(Invitation, { tenantId, email, ...fields });
  const mail = composeMail(em, services, { to: email, tenantId, template: 'invitation', data: { organization: org.name, inviter: inviter.displayName, token } });
  audit(em, { action: 'org.invitation_sent', actorId: userId, tenantId, targetType: 'invitation', targetId: invitation.id, ip: props.ip, data: { email, role: role.key, refreshed: !!open } });
  await em.flush();
  await dispatchMails(services, [mail]);
  return { invitation, refreshed: !!open };
}
