import { notFound } from '../../../lib/errors';
import { Organization } from '../../../entities/identity/organization';
import type { Services } from '../../services';
import { audit } from '../../platform/audit';

export interface SetOrganizationSuspendedProps {
  actorId: string;
  organizationId: string;
  suspended: boolean;
  /** Why (shown to administrators); suspension only. */
  reason?: string;
  ip?: string | null;
}

/**
 * Suspends an organisation (its entitlements then say `suspended` and grant no module, on every instance
 * within the invalidation delay) or lifts the suspension. Members keep their accounts and can still sign in.
 */
export async function setOrganizationSuspended(
  services: Services,
  props: SetOrganizationSuspendedProps,
): Promise<Organization> {
  const em = services.orm.em.fork();
  const org = await em.findOne(Organization, { id: props.organizationId });
  if (!org) throw notFound('Organization');
  if (!!org.suspendedAt === props.suspended) return org;
  org.suspendedAt = props.suspended ? new Date() : null;
  org.suspendedReason = props.suspended ? (props.reason ?? null) : null;
  audit(em, {
    action: props.suspended ? 'admin.org_suspended' : 'admin.org_unsuspended',
    actorId: props.actorId,
    tenantId: org.id,
    targetType: 'organization',
    targetId: org.id,
    ip: props.ip,
    data: props.reason ? { reason: props.reason } : {},
  });
  await em.flush();
  await services.entitlements.invalidate(org.id);
  return org;
}
