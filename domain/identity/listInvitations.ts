import type { TenantContext } from '../context';
import { withRole, type InvitationWithRole } from './invitations';
import { pendingInvitationsPage } from './store/invitations';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

/** Pending invitations of the context's organisation (neither accepted nor expired), newest first. */
export async function listInvitations(ctx: TenantContext, page: PageProps): Promise<Page<InvitationWithRole>> {
  const rows = await pendingInvitationsPage.all(ctx, new Date(), page.cursor ?? null, page.limit + 1);
  return toPage(rows.map(withRole), page.limit);
}
