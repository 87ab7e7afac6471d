import { Invitation } from '../../entities/identity/organization';
import type { TenantContext } from '../context';
import { pendingInvitation } from './invitations';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** Pending invitations of the context's organisation (neither accepted nor expired), newest first. */
export async function listInvitations(ctx: TenantContext, page: PageProps): Promise<Page<Invitation>> {
  const rows = await ctx.em.find(Invitation, { ...pendingInvitation(), ...cursorWhere(page.cursor, 'desc') }, { populate: ['role'], orderBy: { id: 'desc' }, limit: page.limit + 1 });
  return toPage(rows, page.limit);
}
