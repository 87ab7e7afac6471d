import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { Membership, Organization } from '../../entities/identity/organization';

/** The role that may grant and revoke ownership; an organisation always keeps at least one holder. */
export const OWNER_ROLE = 'owner';

export const isOwner = (m: Membership) => m.roles.getItems().some((r) => r.key === OWNER_ROLE);

/**
 * Serialises membership changes of one organisation (a row lock on it, held until the transaction ends),
 * so two owners demoting each other at once cannot both see "another owner is left".
 */
export async function lockOrganization(tx: Em, orgId: string): Promise<void> {
  const org = await tx.findOne(Organization, { id: orgId }, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
  if (!org) throw notFound('Organization');
}

/** A member of the organisation `em` is bound to, with their user and roles; 404 when not a member. */
export async function findMember(em: Em, userId: string): Promise<Membership> {
  const member = await em.findOne(Membership, { user: userId }, { populate: ['user', 'roles'] });
  if (!member) throw notFound('Member');
  return member;
}

export const countOwners = (em: Em) => em.count(Membership, { roles: { key: OWNER_ROLE } });
