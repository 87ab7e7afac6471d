import { SsoLink, SsoProvider } from '../../../entities/identity/sso';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';

/**
 * Removes the organisation's provider and the subjects linked through it (the caller holds org.manage). Members it
 * provisioned stay members and keep their sessions; they sign in otherwise (a password reset, a passkey). Audited.
 */
export async function removeSsoProvider(ctx: TenantContext, props: { ip?: string | null }): Promise<void> {
  await ctx.em.transactional(async (tx) => {
    const provider = await tx.findOne(SsoProvider, {});
    if (!provider) throw notFound('Single sign-on provider');
    await tx.nativeDelete(SsoLink, {});
    tx.remove(provider);
    audit(tx, {
      action: 'sso.provider_removed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'sso_provider',
      targetId: provider.id,
      ip: props.ip,
      data: { issuer: provider.issuer },
    });
  });
}
