import type { Request } from 'express';
import type { ModuleMount } from '../../http/mount';
import { accepted, noContent } from '../../http/routes';
import { BookingService, Staff } from '../../../entities/core/booking';
import { endVisitorSession, requestVisitorLink, verifyVisitorLink, visitorBookings, visitorSession } from '../../../domain/core/booking/visitors';
import { VisitorLinkBody, VisitorVerifyBody } from './dtos';
import { StorefrontBookingView, VisitorLinkSentView, VisitorMeView, VisitorSessionView } from './storefrontViews';
import { isoTime } from '../../http/present';

const bearer = (req: Request) => /^Bearer ([A-Za-z0-9_-]{20,100})$/.exec(req.get('authorization') ?? '')?.[1];

/**
 * /api/public/auth: magic-link sign-in of storefront visitors (no account, no password). request-link mails a
 * link; verify exchanges it for a session; me shows the visitor's bookings at that store.
 */
export function visitorAuthRoutes({ routes, services }: ModuleMount): void {
  const r = routes('Booking: visitor sign-in');
  const perIp = (name: string) => ({ name, limit: services.config.RATE_LIMIT_ANON_PER_MINUTE });
  const visitorSecurity = [{ visitorSession: [] }];

  r.post(
    '/api/public/auth/request-link',
    {
      access: 'public',
      summary: 'Mail me a sign-in link for a store',
      description:
        'Always 202 `{ status: "sign_in_link_sent" }` for a published store, whatever the address: the link only shows bookings made with that address, so nothing can be learnt from the answer. The link (booking_sign_in mail) works once, for 15 minutes; only its SHA-256 is stored. POST because it sends mail. Rate limited per IP (RATE_LIMIT_ANON_PER_MINUTE) and per address (RATE_LIMIT_AUTH_PER_MINUTE per 10 minutes). At most MAIL_RECIPIENT_CAP_PER_HOUR mails anyone can cause reach one address an hour: past it no link is mailed, the answer unchanged. Unknown or unpublished store: 404.',
      body: VisitorLinkBody,
      response: VisitorLinkSentView,
      status: 202,
      errors: { 404: 'Unknown or unpublished store' },
      rateLimits: [perIp('visitor-link-ip'), { name: 'visitor-link-email', limit: services.config.RATE_LIMIT_AUTH_PER_MINUTE, windowSeconds: 600, by: (req) => (req.body as { email?: unknown } | undefined)?.email?.toString() }],
    },
    async ({ body }) => {
      await requestVisitorLink(services, body);
      return accepted({ status: 'sign_in_link_sent' });
    },
  );

  r.post(
    '/api/public/auth/verify',
    {
      access: 'public',
      summary: 'Exchange a sign-in link for a visitor session',
      description:
        'With the token of the mailed link. POST, not GET: verifying consumes the link, and mail scanners fetch the addresses they see (the front-end page the link opens posts the token). The link is claimed by one conditional UPDATE, so it works exactly once even under concurrent calls; unknown, expired or used: 401 `visitor_link_invalid`. Answers a session token (30 days; given once, stored hashed) for that store only. Rate limited per IP.',
      body: VisitorVerifyBody,
      response: VisitorSessionView,
      rateLimits: [perIp('visitor-verify-ip')],
      errors: { 401: '`visitor_link_invalid`' },
    },
    async ({ body }) => {
      const s = await verifyVisitorLink(services, body.token);
      return { sessionToken: s.sessionToken, expiresAt: isoTime(s.expiresAt), email: s.email, store: { name: s.business.name, publicSlug: s.business.publicSlug ?? '' } } satisfies VisitorSessionView;
    },
  );

  r.get(
    '/api/public/auth/me',
    {
      access: 'public',
      summary: 'The signed-in visitor and their bookings',
      description: 'With `Authorization: Bearer <sessionToken>` from verify: the visitor\'s address, the store and the bookings made there with that address (public facts only). Missing, unknown or expired session, or a store no longer published: 401 `visitor_session_invalid`.',
      security: visitorSecurity,
      rateLimits: [perIp('visitor-me-ip')],
      response: VisitorMeView,
      errors: { 401: '`visitor_session_invalid`' },
    },
    async ({ req }) => {
      const session = await visitorSession(services, bearer(req));
      const { em } = session.ctx;
      const bookings = await visitorBookings(session.ctx, session.email);
      const [svc, staff] = await Promise.all([
        em.find(BookingService, { id: { $in: [...new Set(bookings.map((b) => b.serviceId))] } }, { fields: ['id', 'name'] }),
        em.find(Staff, { id: { $in: [...new Set(bookings.map((b) => b.staffId))] } }, { fields: ['id', 'displayName'] }),
      ]);
      const serviceOf = new Map(svc.map((s) => [s.id, s]));
      const staffOf = new Map(staff.map((s) => [s.id, s]));
      return {
        email: session.email,
        expiresAt: isoTime(session.expiresAt),
        store: { name: session.business.name, publicSlug: session.business.publicSlug! },
        bookings: bookings.map((b) => StorefrontBookingView.from(b, serviceOf.get(b.serviceId)!, staffOf.get(b.staffId)!)),
      } satisfies VisitorMeView;
    },
  );

  r.delete(
    '/api/public/auth/me',
    { access: 'public', summary: 'Sign out (end the visitor session)', description: 'The session token stops working at once. Always 204.', security: visitorSecurity, rateLimits: [perIp('visitor-me-ip')], status: 204 },
    async ({ req }) => {
      await endVisitorSession(services, bearer(req));
      return noContent();
    },
  );
}
