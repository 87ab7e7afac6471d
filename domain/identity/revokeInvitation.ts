import { notFound } from '../../lib/errors';
import { Invitation } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from './audit';

export interface RevokeInvitationProps {
  invitationId: string;
  ip?: string | null;
}

/** Deletes an invitation not yet accepted (its link stops working); 404 for an accepted or unknown one. */
export async function revokeInvitation(ctx: TenantContext, props: RevokeInvitationProps): Promise<void> {
  const { em } = ctx;
  const invitation = await em.findOne(Invitation, { id: props.invitationId, acceptedAt: null });
  if (!invitation) throw notFound('Invitation');
  em.remove(invitation);
  audit(em, { action: 'org.invitation_revoked', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'invitation', targetId: invitation.id, ip: props.ip, data: { email: invitation.email } });
  await em.flush();
}
