import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { Membership, Organization, Role } from '../../../entities/identity/organization';
import type { User } from '../../../entities/identity/user';

/** Statements of organisations' memberships (who belongs where, with which roles) and of their locks. */

/**
 * Row lock on an organisation, held until the transaction ends: serialises its membership and role changes.
 * False when there is no such organisation.
 */
export async function lockOrganizationRow(tx: Em, orgId: string): Promise<boolean> {
  return !!(await tx.findOne(Organization, { id: orgId }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] }));
}

/**
 * Advisory lock on the seats of an organisation until the transaction ends (as vr_rooms in createRoom):
 * serialises the seat checks of acceptances and invitations.
 */
export const lockSeats = (tx: Em, tenantId: string) =>
  tx.execute('select pg_advisory_xact_lock(hashtext(?))', [`org_seats:${tenantId}`]);

/** The membership of a user in the organisation `em` is bound to, with their user and roles. */
export const membershipWithUser = (em: Em, userId: string) =>
  em.findOne(Membership, { user: userId }, { populate: ['user', 'roles'] });

/** The membership of a user in the organisation `em` is bound to, with their roles. */
export const membershipWithRoles = (em: Em, userId: string) =>
  em.findOne(Membership, { user: userId }, { populate: ['roles'] });

/** The membership of a user in any organisation (no tenant filter), with their roles. */
export const membershipIn = (em: Em, tenantId: string, userId: string) =>
  em.findOne(Membership, { tenantId, user: userId }, { populate: ['roles'], filters: { tenant: false } });

/** The same, when the membership must exist (just written): throws otherwise. */
export const membershipInOrFail = (em: Em, tenantId: string, userId: string) =>
  em.findOneOrFail(Membership, { tenantId, user: userId }, { populate: ['roles'], filters: { tenant: false } });

/** Whether a user is a member of an organisation (any tenant filter off). */
export const isMemberOf = async (em: Em, tenantId: string, user: User | string) =>
  (await em.count(Membership, { tenantId, user }, { filters: { tenant: false } })) > 0;

/** Whether a user is a member of the organisation `em` is bound to. */
export const isMember = async (em: Em, userId: string) => (await em.count(Membership, { user: userId })) > 0;

/** Whether the account of an address is a member of the organisation `em` is bound to. */
export const isMemberByEmail = async (em: Em, email: string) => (await em.count(Membership, { user: { email } })) > 0;

/** Members of the organisation `em` is bound to holding the role of this key. */
export const countHoldersOfKey = (em: Em, roleKey: string) => em.count(Membership, { roles: { key: roleKey } });

/** Members of an organisation (any tenant filter off: the caller may run outside its context). */
export const countMembers = (em: Em, tenantId: string) =>
  em.count(Membership, { tenantId }, { filters: { tenant: false } });

/** Members of the organisation `em` is bound to holding a role. */
export const countHolders = (em: Em, role: Role) => em.count(Membership, { roles: role });

/** The organisations of a user's memberships (any tenant), oldest membership first. */
export async function membershipTenants(em: Em, user: User): Promise<string[]> {
  const memberships = await em.find(
    Membership,
    { user },
    { filters: { tenant: false }, orderBy: { id: 'asc' }, fields: ['tenantId'] },
  );
  return memberships.map((m) => m.tenantId);
}

/** Of these organisations, the ones not suspended. */
export async function unsuspended(em: Em, orgIds: string[]): Promise<string[]> {
  return (await em.find(Organization, { id: { $in: orgIds }, suspendedAt: null }, { fields: ['id'] })).map((o) => o.id);
}

// Lean statements (docs/database-path.md): the page of memberships with their users' identity, then the roles
// of the whole page through the pivot, in order of creation (system roles first).
// $1 cursor, $2 limit.
export const membersPage = lean(Membership, {
  join: 'join users u on u.id = memberships.user_id',
  where: '($1::uuid is null or memberships.id > $1)',
  orderBy: 'memberships.id asc',
  limitParam: '$2',
  extra: { userId: 'u.id', email: 'u.email', displayName: 'u.display_name' },
});
// $1 membership ids.
export const rolesOfMembers = lean(Role, {
  join: 'join membership_roles mr on mr.role_id = roles.id',
  where: 'mr.membership_id = any($1::uuid[])',
  orderBy: 'roles.id asc',
  extra: { membershipId: 'mr.membership_id' },
});

// Lean statements: the page of a user's memberships, then their organisations and roles. A user's memberships
// are in every organisation they belong to, so both membership reads cross tenants (crossTenant), bound to the
// caller's user id and to the ids of their own memberships.
// $1 user, $2 cursor, $3 limit.
export const membershipsOfUserPage = lean(Membership, {
  crossTenant: true,
  where: 'user_id = $1 and ($2::uuid is null or id > $2)',
  orderBy: 'id asc',
  limitParam: '$3',
});
// $1 organisation ids.
export const organizationsById = lean(Organization, { where: 'id = any($1::uuid[])' });
// $1 membership ids, in any organisation.
export const rolesOfOwnMemberships = lean(Role, {
  crossTenant: true,
  join: 'join membership_roles mr on mr.role_id = roles.id',
  where: 'mr.membership_id = any($1::uuid[])',
  orderBy: 'roles.id asc',
  extra: { membershipId: 'mr.membership_id' },
});

/** Whether an organisation requires its members to sign in with a second factor. */
export const requiresMfa = async (em: Em, orgId: string) =>
  (await em.count(Organization, { id: orgId, mfaRequired: true })) > 0;
