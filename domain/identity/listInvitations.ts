import { Invitation } from '../../entities/identity/organization';
import { lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { roleColumns, roleJoin, withRole, type InvitationWithRole } from './invitations';
import { toPage, type Page, type PageProps } from '../../lib/pagination';

// A lean statement (docs/database-path.md): pending invitations with their role, in one round trip.
const pendingPage = lean(Invitation, {
  join: roleJoin,
  where: 'invitations.accepted_at is null and invitations.expires_at > $1 and ($2::uuid is null or invitations.id < $2)',
  orderBy: 'invitations.id desc',
  limitParam: '$3',
  extra: roleColumns,
});

/** Pending invitations of the context's organisation (neither accepted nor expired), newest first. */
export async function listInvitations(ctx: TenantContext, page: PageProps): Promise<Page<InvitationWithRole>> {
  const rows = await pendingPage.all(ctx, new Date(), page.cursor ?? null, page.limit + 1);
  return toPage(rows.map(withRole), page.limit);
}
