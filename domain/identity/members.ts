import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { Membership } from '../../entities/identity/organization';
import { countHoldersOfKey, lockOrganizationRow, membershipWithUser } from './store/memberships';

/** The role that may grant and revoke ownership; an organisation always keeps at least one holder. */
export const OWNER_ROLE = 'owner';

export const isOwner = (m: Pick<Membership, 'roles'>) => m.roles.getItems().some((r) => r.key === OWNER_ROLE);

/**
 * Serialises membership changes of one organisation (a row lock on it, held until the transaction ends),
 * so two owners demoting each other at once cannot both see "another owner is left".
 */
export async function lockOrganization(tx: Em, orgId: string): Promise<void> {
  if (!(await lockOrganizationRow(tx, orgId))) throw notFound('Organization');
}

/** A member of the organisation `em` is bound to, with their user and roles; 404 when not a member. */
export async function findMember(em: Em, userId: string): Promise<Membership> {
  const member = await membershipWithUser(em, userId);
  if (!member) throw notFound('Member');
  return member;
}

/** Owners of the organisation `em` is bound to. */
export const countOwners = (em: Em) => countHoldersOfKey(em, OWNER_ROLE);
