import type { Em } from '../../lib/db';
import type { Lean } from '../../lib/lean';
import { Organization, type Invitation, type Role } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';

/** Invitations: how long a mailed invitation works, which ones are still open, and what an invitee is shown. */
export const INVITATION_TTL_DAYS = 7;

export const invitationExpiry = () => new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000);

/** Neither accepted nor expired. */
export const pendingInvitation = () => ({ acceptedAt: null, expiresAt: { $gt: new Date() } });

export const isPending = (i: Invitation) => !i.acceptedAt && i.expiresAt > new Date();

/** An invitation with the reference of its role (an entity with its role loaded, or a lean row). */
export type InvitationWithRole = Lean<Invitation> & { role: Pick<Lean<Role>, 'id' | 'key' | 'name'> };

/** A lean statement over invitations selects its role with this join and these `extra` columns (see `withRole`). */
export const roleJoin = 'join roles r on r.id = invitations.role_id';
export const roleColumns = { roleId: 'r.id', roleKey: 'r.key', roleName: 'r.name' };

/** A lean invitation row with `roleColumns`, its role as a reference. */
export function withRole<R extends Lean<Invitation> & { roleId: unknown; roleKey: unknown; roleName: unknown }>({ roleId, roleKey, roleName, ...invitation }: R) {
  return { ...invitation, role: { id: roleId as string, key: roleKey as string, name: roleName as string } };
}

/** An invitation as its invitee sees it: which organisation, and who invited them. */
export interface InvitationDetails {
  id: string;
  invitation: InvitationWithRole;
  organization: Pick<Lean<Organization>, 'id' | 'name'>;
  inviterName: string | null;
}

/** Adds organisation and inviter to invitations (roles populated), two queries for all of them. */
export async function withDetails(em: Em, invitations: Invitation[]): Promise<InvitationDetails[]> {
  const [orgs, inviters] = await Promise.all([
    em.find(Organization, { id: { $in: invitations.map((i) => i.tenantId) } }),
    em.find(User, { id: { $in: invitations.map((i) => i.invitedById) } }, { fields: ['displayName'] }),
  ]);
  const org = new Map(orgs.map((o) => [o.id, o]));
  const name = new Map(inviters.map((u) => [u.id, u.displayName]));
  return invitations.map((i) => ({ id: i.id, invitation: i, organization: org.get(i.tenantId)!, inviterName: name.get(i.invitedById) ?? null }));
}
