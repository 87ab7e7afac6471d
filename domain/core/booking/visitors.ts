import { Appointment } from '../../../entities/core/booking';
import { VisitorToken } from '../../../entities/core/visitor';
import type { Business } from '../../../entities/core/business';
import { unauthorized } from '../../../lib/errors';
import { tenantContext, type TenantContext } from '../../context';
import { composeMail, dispatchMails } from '../../platform/mail';
import type { Services } from '../../services';
import { getBusiness } from '../org/getBusiness';
import { hashToken, newOpaqueToken } from '../../../lib/tokens';
import { openStore } from './storefront';

/** A magic link works once, this long. */
export const VISITOR_LINK_TTL_MINUTES = 15;
/** The session a link opens lasts this long. */
export const VISITOR_SESSION_TTL_DAYS = 30;
/** Most bookings `me` lists. */
const ME_MAX_BOOKINGS = 100;

const normalise = (email: string) => email.trim().toLowerCase();

/**
 * Mails a sign-in link for this store to any address: the link only shows the bookings made with that
 * address, so there is nothing to enumerate and the answer is the same for every address. Stored hashed.
 */
export async function requestVisitorLink(services: Services, props: { publicSlug: string; email: string }): Promise<void> {
  const store = await openStore(services, props.publicSlug);
  const { em, tenantId } = store.ctx;
  const token = newOpaqueToken();
  const email = normalise(props.email);
  em.create(VisitorToken, { tenantId, kind: 'link', email, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + VISITOR_LINK_TTL_MINUTES * 60_000), usedAt: null });
  const mail = composeMail(em, services, { to: email, tenantId, template: 'booking_sign_in', data: { business: store.business.name, slug: store.business.publicSlug!, token } });
  await em.flush();
  await dispatchMails(services, [mail]);
}

export interface VisitorSession {
  sessionToken: string;
  expiresAt: Date;
  email: string;
  business: Business;
}

const invalidLink = () => unauthorized('visitor_link_invalid', 'This sign-in link is unknown, expired or already used; ask for a new one');
const invalidSession = () => unauthorized('visitor_session_invalid', 'Sign in again with a new link');

/**
 * Exchanges a magic link for a visitor session. The link is consumed by one conditional UPDATE (unused and
 * unexpired), so of two concurrent verifications exactly one succeeds; the session token is given once.
 */
export async function verifyVisitorLink(services: Services, token: string): Promise<VisitorSession> {
  const em = services.orm.em.fork();
  const link = await em.findOne(VisitorToken, { tokenHash: hashToken(token), kind: 'link' }, { filters: false });
  if (!link) throw invalidLink();
  const now = new Date();
  const claimed = await em.nativeUpdate(VisitorToken, { id: link.id, usedAt: null, expiresAt: { $gt: now } }, { usedAt: now }, { filters: false });
  if (claimed !== 1) throw invalidLink();
  const ctx = tenantContext(services, link.tenantId);
  const sessionToken = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + VISITOR_SESSION_TTL_DAYS * 86_400_000);
  ctx.em.create(VisitorToken, { tenantId: link.tenantId, kind: 'session', email: link.email, tokenHash: hashToken(sessionToken), expiresAt, usedAt: null });
  await ctx.em.flush();
  return { sessionToken, expiresAt, email: link.email, business: await getBusiness(ctx) };
}

/** The visitor a session token names (unexpired), with a context bound to that store's organisation. */
export async function visitorSession(services: Services, token: string | undefined): Promise<{ ctx: TenantContext; email: string; expiresAt: Date; business: Business }> {
  if (!token) throw invalidSession();
  const session = await services.orm.em.fork().findOne(VisitorToken, { tokenHash: hashToken(token), kind: 'session', expiresAt: { $gt: new Date() } }, { filters: false });
  if (!session) throw invalidSession();
  const ctx = tenantContext(services, session.tenantId);
  const business = await getBusiness(ctx);
  if (!business.publicSlug || !business.publicProfile.published) throw invalidSession();
  return { ctx, email: session.email, expiresAt: session.expiresAt, business };
}

/** The visitor's bookings at that store (made with their address), the latest start first. */
export const visitorBookings = (ctx: TenantContext, email: string) => ctx.em.find(Appointment, { attendeeEmail: email }, { orderBy: { startAt: 'desc', id: 'desc' }, limit: ME_MAX_BOOKINGS });

/** Ends a visitor session (sign out). */
export async function endVisitorSession(services: Services, token: string | undefined): Promise<void> {
  if (!token) return;
  await services.orm.em.fork().nativeDelete(VisitorToken, { tokenHash: hashToken(token), kind: 'session' }, { filters: false });
}
