import { Organization } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';

/**
 * Requires (or stops requiring) a second factor of the organisation's members (the caller holds org.manage,
 * checked by memberContext). From their next sign-in, members without one get an enrolment-only challenge and
 * nothing else until they enrol; switching into the organisation without a factor is refused. Audited.
 */
export async function setMfaPolicy(
  ctx: TenantContext,
  props: { required: boolean; ip?: string | null },
): Promise<{ required: boolean }> {
  await ctx.em.transactional(async (tx) => {
    const org = await tx.findOneOrFail(Organization, { id: ctx.tenantId });
    if (org.mfaRequired === props.required) return;
    org.mfaRequired = props.required;
    audit(tx, {
      action: 'org.mfa_policy_changed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'organization',
      targetId: ctx.tenantId,
      ip: props.ip,
      data: { required: props.required },
    });
  });
  return { required: props.required };
}
