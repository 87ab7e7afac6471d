import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { activeScimToken } from '../store/scim';

/**
 * Revokes the organisation's SCIM token (org.manage, checked by memberContext): the identity provider's next
 * request is refused (401), on every instance. 404 when there is none. Provisioned members stay. Audited.
 */
export async function revokeScimToken(ctx: TenantContext, props: { ip?: string | null }): Promise<void> {
  await ctx.em.transactional(async (tx) => {
    const token = await activeScimToken(tx);
    if (!token) throw notFound('SCIM token');
    token.revokedAt = new Date();
    audit(tx, {
      action: 'scim.token_revoked',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'scim_token',
      targetId: token.id,
      ip: props.ip,
    });
  });
}
