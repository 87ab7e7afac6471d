import type { Membership, Organization, Role } from '../../entities/identity/organization';
import { withoutTenant, type Lean } from '../../lib/lean';
import type { Services } from '../services';
import { organizationsById } from './store/memberships';

/** An organisation the user belongs to, with their roles there and when they joined. */
export interface MyOrganization {
  /** The membership's id (the page cursor). */
  id: string;
  organization: Lean<Organization>;
  roles: Lean<Role>[];
  joinedAt: Date;
}

/**
 * The memberships given (roles populated), with their organisations (one statement for all): what founding an
 * organisation or accepting an invitation answers, read after their flush. Organisations are not tenant-scoped.
 */
export async function withOrganizations(services: Services, memberships: Membership[]): Promise<MyOrganization[]> {
  const orgs = await organizationsById.all(
    withoutTenant(services),
    memberships.map((m) => m.tenantId),
  );
  const byId = new Map(orgs.map((o) => [o.id, o]));
  return memberships.map((m) => ({
    id: m.id,
    organization: byId.get(m.tenantId)!,
    roles: m.roles.getItems(),
    joinedAt: m.createdAt,
  }));
}
