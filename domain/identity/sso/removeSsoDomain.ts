import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { ssoDomainById } from '../store/sso';

/**
 * Gives up a claimed domain (the caller holds org.manage): its addresses no longer route to the organisation's
 * provider nor are provisioned by it; linked members stay linked. Audited `sso.domain_removed`.
 */
export async function removeSsoDomain(ctx: TenantContext, props: { domainId: string; ip?: string | null }) {
  const claim = await ssoDomainById(ctx.em, props.domainId);
  if (!claim) throw notFound('Domain');
  ctx.em.remove(claim);
  audit(ctx.em, {
    action: 'sso.domain_removed',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'sso_domain',
    targetId: claim.id,
    ip: props.ip,
    data: { domain: claim.domain, verified: !!claim.verifiedAt },
  });
  await ctx.em.flush();
}
