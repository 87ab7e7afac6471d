import { Invitation } from '../../entities/identity/organization';
import { User } from '../../entities/identity/user';
import type { Services } from '../services';
import { pendingInvitation, withDetails, type InvitationDetails } from './invitations';
import { cursorWhere, toPage, type Page, type PageProps } from '../../lib/pagination';

/** Pending invitations addressed to the caller's e-mail, in every organisation, newest first. */
export async function listMyInvitations(services: Services, userId: string, page: PageProps): Promise<Page<InvitationDetails>> {
  const em = services.orm.em.fork();
  const user = await em.findOneOrFail(User, { id: userId }, { fields: ['email'] });
  const rows = await em.find(
    Invitation,
    { email: user.email, ...pendingInvitation(), ...cursorWhere(page.cursor, 'desc') },
    { populate: ['role'], orderBy: { id: 'desc' }, limit: page.limit + 1, filters: { tenant: false } },
  );
  const { items, nextCursor } = toPage(rows, page.limit);
  return { items: await withDetails(em, items), nextCursor };
}
