import type { Request } from 'express';
import type { ModuleMount } from '../../http/mount';
import { accepted, noContent } from '../../http/routes';
import { endVisitorSession } from '../../../domain/core/booking/endVisitorSession';
import { requestVisitorLink } from '../../../domain/core/booking/requestVisitorLink';
import { verifyVisitorLink } from '../../../domain/core/booking/verifyVisitorLink';
import { visitorMe } from '../../../domain/core/booking/visitorMe';
import { VisitorLinkBody, VisitorVerifyBody } from './dtos';
import { StorefrontBookingView, VisitorLinkSentView, VisitorMeView, VisitorSessionView } from './storefrontViews';
import { isoTime } from '../../http/present';
import { requestLinkDoc, verifyLinkDoc, visitorMeDoc } from './visitorAuth.docs';

const bodyEmail = (req: Request) => (req.body as { email?: unknown } | undefined)?.email?.toString();
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
      description: requestLinkDoc,
      body: VisitorLinkBody,
      response: VisitorLinkSentView,
      status: 202,
      errors: { 404: 'Unknown or unpublished store' },
      rateLimits: [
        perIp('visitor-link-ip'),
        {
          name: 'visitor-link-email',
          limit: services.config.RATE_LIMIT_AUTH_PER_MINUTE,
          windowSeconds: 600,
          by: bodyEmail,
        },
      ],
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
      description: verifyLinkDoc,
      body: VisitorVerifyBody,
      response: VisitorSessionView,
      rateLimits: [perIp('visitor-verify-ip')],
      errors: { 401: '`visitor_link_invalid`' },
    },
    async ({ body }) => {
      const s = await verifyVisitorLink(services, body.token);
      const store = { name: s.business.name, publicSlug: s.business.publicSlug ?? '' };
      return {
        sessionToken: s.sessionToken,
        expiresAt: isoTime(s.expiresAt),
        email: s.email,
        store,
      } satisfies VisitorSessionView;
    },
  );

  r.get(
    '/api/public/auth/me',
    {
      access: 'public',
      summary: 'The signed-in visitor and their bookings',
      description: visitorMeDoc,
      security: visitorSecurity,
      rateLimits: [perIp('visitor-me-ip')],
      response: VisitorMeView,
      errors: { 401: '`visitor_session_invalid`' },
    },
    async ({ req }) => {
      const me = await visitorMe(services, bearer(req));
      return {
        email: me.email,
        expiresAt: isoTime(me.expiresAt),
        store: { name: me.business.name, publicSlug: me.business.publicSlug! },
        bookings: me.bookings.map((b) => StorefrontBookingView.from(b.appointment, b.service, b.staff)),
      } satisfies VisitorMeView;
    },
  );

  r.delete(
    '/api/public/auth/me',
    {
      access: 'public',
      summary: 'Sign out (end the visitor session)',
      description: 'The session token stops working at once. Always 204.',
      security: visitorSecurity,
      rateLimits: [perIp('visitor-me-ip')],
      status: 204,
    },
    async ({ req }) => {
      await endVisitorSession(services, bearer(req));
      return noContent();
    },
  );
}
