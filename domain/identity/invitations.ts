import type { Em } from '../../lib/db';
import type { Lean } from '../../lib/lean';
import type { Invitation, Organization, Role } from '../../entities/identity/organization';
import { displayNames, organizationsOfIds } from './store/invitations';

/** Invitations: how long a mailed invitation works, which ones are still open, and what an invitee is shown. */
export const INVITATION_TTL_DAYS = 7;

export const invitationExpiry = (now = Date.now()) => new Date(now + INVITATION_TTL_DAYS * 86_400_000);

/** Neither accepted nor expired. */
export const isPending = (i: Pick<Invitation, 'acceptedAt' | 'expiresAt'>, now = new Date()) =>
  !i.acceptedAt && i.expiresAt > now;

/** An invitation with the reference of its role (an entity with its role loaded, or a lean row). */
export type InvitationWithRole = Lean<Invitation> & { role: Pick<Lean<Role>, 'id' | 'key' | 'name'> };

/** A lean invitation row with the role columns of store/invitations.ts, its role as a reference. */
export function withRole<R extends Lean<Invitation> & { roleId: unknown; roleKey: unknown; roleName: unknown }>({
  roleId,
  roleKey,
  roleName,
  ...invitation
}: R) {
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
  const [orgs, name] = await Promise.all([
    organizationsOfIds(
      em,
      invitations.map((i) => i.tenantId),
    ),
    displayNames(
      em,
      invitations.map((i) => i.invitedById),
    ),
  ]);
  const org = new Map(orgs.map((o) => [o.id, o]));
  return invitations.map((i) => ({
    id: i.id,
    invitation: i,
    organization: org.get(i.tenantId)!,
    inviterName: name.get(i.invitedById) ?? null,
  }));
}
