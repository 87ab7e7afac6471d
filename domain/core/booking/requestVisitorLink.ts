import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { composeMail, dispatchMails } from '../../platform/mail';
import type { Services } from '../../services';
import { openStore } from './openStore';
import { addToken } from './store/visitors';
import { normaliseEmail, VISITOR_LINK_TTL_MINUTES } from './visitorTokens';

/**
 * Mails a sign-in link for this store to any address: the link only shows the bookings made with that
 * address, so there is nothing to enumerate and the answer is the same for every address. Stored hashed.
 */
export async function requestVisitorLink(
  services: Services,
  props: { publicSlug: string; email: string },
): Promise<void> {
  const store = await openStore(services, props.publicSlug);
  const { em, tenantId } = store.ctx;
  const token = newOpaqueToken();
  const email = normaliseEmail(props.email);
  addToken(em, {
    tenantId,
    kind: 'link',
    email,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + VISITOR_LINK_TTL_MINUTES * 60_000),
  });
  const mail = composeMail(em, services, {
    to: email,
    tenantId,
    template: 'booking_sign_in',
    data: { business: store.business.name, slug: store.business.publicSlug!, token },
  });
  await em.flush();
  await dispatchMails(services, [mail]);
}
