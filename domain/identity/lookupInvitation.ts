import { notFound } from '../../lib/errors';
import type { Services } from '../services';
import { isPending, withDetails, type InvitationDetails } from './invitations';
import { invitationByToken } from './store/invitations';

/**
 * What the page behind an invitation link shows before sign-in: organisation, inviter, role, e-mail and
 * expiry. Unknown, accepted and expired tokens are all 404.
 */
export async function lookupInvitation(services: Services, token: string): Promise<InvitationDetails> {
  const em = services.orm.em.fork();
  const invitation = await invitationByToken(em, token);
  if (!invitation || !isPending(invitation)) throw notFound('Invitation');
  const [details] = await withDetails(em, [invitation]);
  return details;
}
