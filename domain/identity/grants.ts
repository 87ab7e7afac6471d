import type { Em } from '../../lib/db';
import { forbidden } from '../../lib/errors';
import type { Role } from '../../entities/identity/organization';
import { isOwner } from './members';
import { allPermissions } from './permissionCatalogue';
import { effectivePermissions } from './permissions';
import { membershipWithRoles } from './store/memberships';

/**
 * The escalation rule of RBAC (as Kubernetes and GitHub apply it): a caller grants or takes away only what it
 * holds itself. Giving a member a role, taking one away from them (removing them included), inviting with a
 * role, creating a role and adding or removing permissions of a role all answer 403 `permission_escalation`,
 * naming what is missing, unless every permission involved is among the caller's own effective permissions in
 * the organisation. Owners hold everything and are exempt (the owner role itself keeps its own rule,
 * `owner_required`). A role the caller holds may lose permissions but only an owner adds permissions to it.
 */
export interface Grantor {
  owner: boolean;
  /** Effective permissions: the union of the caller's roles, as PermissionResolver computes them. */
  permissions: ReadonlySet<string>;
  /** Ids of the roles the caller holds. */
  roleIds: ReadonlySet<string>;
}

/**
 * The acting member as it is in `tx` (read from the database, not from the permission cache, so a change
 * committed just before counts; run after `lockOrganization` where roles of members change, so what is read
 * cannot change before the transaction commits). 403 `permission_denied` when the caller is no longer a member.
 */
export async function loadGrantor(tx: Em, userId: string): Promise<Grantor> {
  const member = await membershipWithRoles(tx, userId);
  if (!member) throw forbidden('permission_denied', 'You are not a member of this organisation');
  const roles = member.roles.getItems();
  return { owner: isOwner(member), permissions: effectivePermissions(roles), roleIds: new Set(roles.map((r) => r.id)) };
}

const catalogueOrder = (a: string, b: string) => rank(a) - rank(b) || a.localeCompare(b);
const rank = (key: string) => {
  const i = (allPermissions as string[]).indexOf(key);
  return i < 0 ? allPermissions.length : i;
};

/** The permissions among `wanted` that the grantor does not hold, in catalogue order (none for an owner). */
function lacking(grantor: Grantor, wanted: Iterable<string>): string[] {
  if (grantor.owner) return [];
  return [...new Set(wanted)].filter((p) => !grantor.permissions.has(p)).sort(catalogueOrder);
}

const escalation = (detail: string) => forbidden('permission_escalation', detail);

/** 403 `permission_escalation` unless the grantor holds every permission in `wanted`; `action` starts the detail. */
export function requireHeld(grantor: Grantor, wanted: Iterable<string>, action: string): void {
  const missing = lacking(grantor, wanted);
  if (missing.length) throw escalation(`${action} needs permissions you do not hold: ${missing.join(', ')}`);
}

/**
 * 403 `permission_escalation` unless the grantor holds every permission of each role, for granting them or
 * taking them away (`action` is e.g. "Granting", "Taking away"; the roles' keys follow it in the detail).
 */
export function requireRolesHeld(
  grantor: Grantor,
  roles: readonly Pick<Role, 'key' | 'permissions'>[],
  action: string,
): void {
  const beyond = roles.filter((r) => lacking(grantor, r.permissions).length);
  if (!beyond.length) return;
  const names = beyond.map((r) => r.key).join(', ');
  requireHeld(
    grantor,
    beyond.flatMap((r) => r.permissions),
    `${action} the role${beyond.length > 1 ? 's' : ''} ${names}`,
  );
}

/**
 * The rule for replacing the permissions of `role` with `next`: every permission added or removed must be held
 * by the grantor, and a role the grantor holds can only lose permissions (unless they are an owner).
 */
export function requireRoleChangeHeld(
  grantor: Grantor,
  role: Pick<Role, 'id' | 'key' | 'permissions'>,
  next: readonly string[],
): void {
  if (grantor.owner) return;
  const added = next.filter((p) => !role.permissions.includes(p));
  const removed = role.permissions.filter((p) => !next.includes(p));
  requireHeld(grantor, [...added, ...removed], `Changing the permissions of the role ${role.key}`);
  if (added.length && grantor.roleIds.has(role.id)) {
    throw escalation(
      `You hold the role ${role.key} yourself: only an owner can add permissions to it (${[...added].sort(catalogueOrder).join(', ')}); removing permissions is allowed`,
    );
  }
}
