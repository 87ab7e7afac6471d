import type { TenantContext } from '../context';
import { withRole, type InvitationDetails } from './invitations';
import { invitationsToUserPage } from './store/invitations';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

/** Pending invitations addressed to the caller's confirmed e-mail, in every organisation, newest first (none while unconfirmed). */
export async function listMyInvitations(
  ctx: TenantContext,
  userId: string,
  page: PageProps,
): Promise<Page<InvitationDetails>> {
  const rows = await invitationsToUserPage.all(ctx, userId, new Date(), page.cursor ?? null, page.limit + 1);
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
