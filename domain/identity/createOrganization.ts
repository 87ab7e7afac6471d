import type { Em } from '../../lib/db';
import { Membership, Organization, Role } from '../../entities/identity/organization';
import { openSubscription } from '../billing/openSubscription';
import { audit } from '../platform/audit';
import { defaultRoles } from './permissionCatalogue';
import { slugify } from '../../lib/slugs';

export interface CreateOrganizationProps {
  /** Display name of the organisation. */
  name: string;
  /** The creator, who becomes its owner. */
  ownerId: string;
  ip?: string | null;
}

/** URL-safe slug from an organisation's name, made unique with a short random suffix. */
export const organizationSlug = (name: string): string =>
  `${slugify(name, 60, 'org')}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Creates an organisation with its default roles (owner, admin, member), the creator as owner, and its
 * free subscription, in the caller's unit of work (flush to commit all of it at once).
 */
export function createOrganization(em: Em, props: CreateOrganizationProps): Organization {
  const org = em.create(Organization, {
    name: props.name.trim(),
    slug: organizationSlug(props.name),
    createdById: props.ownerId,
  });
  const roles = defaultRoles.map((r) =>
    em.create(Role, {
      tenantId: org.id,
      key: r.key,
      name: r.name,
      description: r.description,
      permissions: [...r.permissions],
      system: true,
    }),
  );
  const membership = em.create(Membership, { tenantId: org.id, user: props.ownerId });
  membership.roles.add(roles.find((r) => r.key === 'owner')!);
  openSubscription(em, org.id);
  audit(em, {
    action: 'org.created',
    actorId: props.ownerId,
    tenantId: org.id,
    targetType: 'organization',
    targetId: org.id,
    ip: props.ip,
    data: { name: org.name },
  });
  return org;
}
