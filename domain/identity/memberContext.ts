import { notFound } from '../../lib/errors';
import { tenantContext, type TenantContext } from '../context';
import type { Services } from '../services';
import type { Permission } from './permissionCatalogue';
import { requireOrgPermission } from './requireOrgPermission';
import { isMember } from './store/memberships';

/**
 * The caller acting in the organisation a path names (/orgs/{id}/...), which need not be the token's active
 * one: a context bound to it once the caller is known to be a member (else 404, as for any resource of
 * another tenant) holding `permission` there (else 403).
 */
export async function memberContext(
  services: Services,
  orgId: string,
  userId: string,
  permission?: Permission,
): Promise<TenantContext> {
  const ctx = tenantContext(services, orgId, userId);
  if (!(await isMember(ctx.em, userId))) throw notFound('Organization');
  if (permission) await requireOrgPermission(ctx, permission);
  return ctx;
}
