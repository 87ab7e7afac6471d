import { Invitation } from '../../entities/identity/organization';
import { lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { roleColumns, roleJoin, withRole, type InvitationDetails } from './invitations';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

// A lean statement (docs/database-path.md): the pending invitations with role, organisation and inviter in one
// round trip. An invitation is addressed to an e-mail, whichever organisation sent it, so the invitee's own list
// reads every tenant's invitations (crossTenant), bound to the caller's address once it is confirmed: an account
// may sign in before confirming, which proves nothing about the mailbox.
const pendingTo = lean(Invitation, {
  crossTenant: true,
  join: `${roleJoin} join organizations o on o.id = invitations.tenant_id left join users inviter on inviter.id = invitations.invited_by_id`,
  where: `invitations.email = (select email from users where id = $1 and email_confirmed_at is not null) and invitations.accepted_at is null and invitations.expires_at > $2
    and ($3::uuid is null or invitations.id < $3)`,
  orderBy: 'invitations.id desc',
  limitParam: '$4',
  extra: { ...roleColumns, organizationName: 'o.name', inviterName: 'inviter.display_name' },
});

/** Pending invitations addressed to the caller's confirmed e-mail, in every organisation, newest first (none while unconfirmed). */
export async function listMyInvitations(ctx: TenantContext, userId: string, page: PageProps): Promise<Page<InvitationDetails>> {
  const rows = await pendingTo.all(ctx, userId, new Date(), page.cursor ?? null, page.limit + 1);
  const { items, nextCursor } = toPage(rows, page.limit);
  return {
    items: items.map(({ organizationName, inviterName, ...row }) => ({
      id: row.id,
      invitation: withRole(row),
      organization: { id: row.tenantId, name: organizationName as string },
      inviterName: (inviterName as string | null) ?? null,
    })),
    nextCursor,
  };
}
