import { notFound } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { lockUnacceptedInvitation } from './store/invitations';

export interface RevokeInvitationProps {
  invitationId: string;
  ip?: string | null;
}

/**
 * Deletes an invitation not yet accepted (its link stops working); 404 for an accepted or unknown one. The row
 * is locked, so an acceptance in progress either completes first (then this is 404) or finds it gone.
 */
export async function revokeInvitation(ctx: TenantContext, props: RevokeInvitationProps): Promise<void> {
  await ctx.em.transactional(async (tx) => {
    const invitation = await lockUnacceptedInvitation(tx, props.invitationId);
    if (!invitation) throw notFound('Invitation');
    tx.remove(invitation);
    audit(tx, {
      action: 'org.invitation_revoked',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invitation',
      targetId: invitation.id,
      ip: props.ip,
      data: { email: invitation.email },
    });
  });
}
