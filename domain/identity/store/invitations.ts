import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { hashToken } from '../../../lib/tokens';
import { Invitation, Organization, type Role } from '../../../entities/identity/organization';
import { User } from '../../../entities/identity/user';

/** Statements of invitations. */

/** The condition of an invitation neither accepted nor expired. */
const pending = () => ({ acceptedAt: null, expiresAt: { $gt: new Date() } });

/**
 * The invitation of a mailed token, or the one of this id addressed to `email`, in any organisation, locked
 * until the transaction ends.
 */
export const lockInvitation = (tx: Em, by: { token: string } | { id: string; email: string }) =>
  tx.findOne(Invitation, 'token' in by ? { tokenHash: hashToken(by.token) } : { id: by.id, email: by.email }, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    filters: { tenant: false },
  });

/** The unaccepted invitations of an address in the organisation `tx` is bound to (at most one), locked. */
export const lockOpenInvitations = (tx: Em, email: string) =>
  tx.find(Invitation, { email, acceptedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** An unaccepted invitation of the organisation `tx` is bound to, locked. */
export const lockUnacceptedInvitation = (tx: Em, id: string) =>
  tx.findOne(Invitation, { id, acceptedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });

/** The invitation of a mailed token with its role, in any organisation. */
export const invitationByToken = (em: Em, token: string) =>
  em.findOne(Invitation, { tokenHash: hashToken(token) }, { populate: ['role'], filters: { tenant: false } });

/** Pending invitations of an organisation, but `exceptId` (one being refreshed); any tenant filter off. */
export const countPendingInvitations = (em: Em, tenantId: string, exceptId?: string) =>
  em.count(
    Invitation,
    { tenantId, ...pending(), ...(exceptId ? { id: { $ne: exceptId } } : {}) },
    { filters: { tenant: false } },
  );

/** Pending invitations of the organisation `em` is bound to offering a role. */
export const countPendingOffering = (em: Em, role: Role) => em.count(Invitation, { role, ...pending() });

/** Organisations of these ids. */
export const organizationsOfIds = (em: Em, ids: string[]) => em.find(Organization, { id: { $in: ids } });

/** Display names of these accounts, by id. */
export async function displayNames(em: Em, userIds: string[]): Promise<Map<string, string>> {
  const users = await em.find(User, { id: { $in: userIds } }, { fields: ['displayName'] });
  return new Map(users.map((u) => [u.id, u.displayName]));
}

/** A lean statement over invitations selects its role with this join and these `extra` columns (see `withRole`). */
const roleJoin = 'join roles r on r.id = invitations.role_id';
const roleColumns = { roleId: 'r.id', roleKey: 'r.key', roleName: 'r.name' };

// A lean statement (docs/database-path.md): pending invitations with their role, in one round trip.
// $1 now, $2 cursor, $3 limit.
export const pendingInvitationsPage = lean(Invitation, {
  join: roleJoin,
  where:
    'invitations.accepted_at is null and invitations.expires_at > $1 and ($2::uuid is null or invitations.id < $2)',
  orderBy: 'invitations.id desc',
  limitParam: '$3',
  extra: roleColumns,
});

// A lean statement (docs/database-path.md): the pending invitations with role, organisation and inviter in one
// round trip. An invitation is addressed to an e-mail, whichever organisation sent it, so the invitee's own list
// reads every tenant's invitations (crossTenant), bound to the caller's address once it is confirmed: an account
// may sign in before confirming, which proves nothing about the mailbox.
// $1 user, $2 now, $3 cursor, $4 limit.
export const invitationsToUserPage = lean(Invitation, {
  crossTenant: true,
  join: `${roleJoin} join organizations o on o.id = invitations.tenant_id left join users inviter on inviter.id = invitations.invited_by_id`,
  where: `invitations.email = (select email from users where id = $1 and email_confirmed_at is not null) and invitations.accepted_at is null and invitations.expires_at > $2
    and ($3::uuid is null or invitations.id < $3)`,
  orderBy: 'invitations.id desc',
  limitParam: '$4',
  extra: { ...roleColumns, organizationName: 'o.name', inviterName: 'inviter.display_name' },
});
