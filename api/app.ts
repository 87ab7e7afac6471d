import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import compression from 'compression';
import cors from 'cors';
import helmet from 'helmet';
import proxyaddr from 'proxy-addr';
import type { Services } from '../domain/services';
import { packageInfo } from '../lib/package';
import { Authenticator } from './http/auth';
import { observe } from './http/observe';
import { OpenApiRegistry } from './http/openapi';
import { notFoundHandler, problemHandler } from './http/problems';
import { responseContract } from './http/contract';
import { Routes, RouteTable } from './http/routes';
import { apiModules } from './modules';
import { mountCalDav } from './dav/caldav';
import { mountMailLinkPages } from './pages/mailLinks';
import { mountQueueBoard } from './system/queueBoard';
import { localStorageRoutes, mountDocs, systemRoutes } from './system/routes';
import { SocketRouter } from './ws';

export interface WebApp {
  app: Express;
  sockets: SocketRouter;
  openapi: OpenApiRegistry;
  auth: Authenticator;
}

const API_DESCRIPTION = `One backend for identity, billing, knowledge, core business, cloud storage, HR and the VR training companion.

Every route takes and returns JSON unless stated otherwise. Errors are RFC 9457 problem+json documents with a stable
\`code\`. Authenticate with \`Authorization: Bearer <accessToken>\` from POST /auth/login; the organisation (tenant) always
comes from the token, never from the request. Module routes need the organisation to be entitled to the module
(403 \`module_not_entitled\`); entitlement changes reach every instance within seconds.

Input rules of every route: JSON nests at most 32 levels (400 \`json_too_deep\`); no string, key or query parameter
may contain a NUL character or an unpaired UTF-16 surrogate; \`null\` is accepted only by fields documented as nullable,
where it clears the field (elsewhere it is a 400: omit a field to keep its value); unknown fields are refused.

The WebSocket endpoints (the VR assistant, /assistant) and their messages are described in AsyncAPI 3 at
[/asyncapi.json](/asyncapi.json).

Links in mails point at the front end (APP_URL; unset: this server, which then serves minimal pages on these paths).
A front end serves each path and makes the call listed: \`/confirm-email?token=\` -> POST /auth/confirm-email
\`{ token }\`; \`/reset-password?token=\` -> POST /auth/reset-password \`{ token, password }\`;
\`/invitations/accept?token=\` -> GET /orgs/invites/{token}, then signed in POST /orgs/invites/accept \`{ token }\`;
\`/book/{publicSlug}/manage?token=\` -> GET /api/public/stores/{publicSlug}/bookings/{token} (DELETE cancels, PATCH
reschedules); \`/book/{publicSlug}/sign-in?token=\` -> POST /api/public/auth/verify \`{ token }\`, then GET
/api/public/auth/me with the session token; \`/book/{publicSlug}/sign-in\` without a token -> POST
/api/public/auth/request-link \`{ publicSlug, email }\`; \`/book/{publicSlug}/waitlist/leave?token=\` -> GET
/api/public/stores/{publicSlug}/waitlist/{token} (DELETE leaves); \`/book/{publicSlug}/waitlist/hold?token=\` -> GET
/api/public/stores/{publicSlug}/waitlist-holds/{token}, then POST .../claim or .../decline (no built-in page for
these two yet); \`/login\`, \`/forgot-password\` -> POST /auth/login, POST
/auth/forgot-password. A page only ever POSTs a token (mail scanners fetch links) and never shows a tenant id.`;

function trustProxy(value: string): boolean | number | string {
  if (/^\d+$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  return value;
}

/** Builds the Express app (no listen): cross-cutting middleware, every module's routes, docs, dashboard, errors. */
export function createApp(services: Services): WebApp {
  const { config, logger, metrics } = services;
  const app = express();
  app.disable('x-powered-by');
  // No ETag on every answer: only the reads that declare 304 carry one (api/http/routes.ts sendConditional).
  app.set('etag', false);
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));

  // Request ids, durations and (at info) one line per request; errors are logged by the problem handler at any level.
  const table = new RouteTable();
  app.use(observe(metrics, { logger, redactPath: (url) => table.redactPath(url) }));

  const auth = new Authenticator(services);
  const openapi = new OpenApiRegistry({
    title: 'Platform Suite API',
    version: packageInfo.version,
    description: API_DESCRIPTION,
  });
  // In tests every answer is checked against the published document (violations fail the test).
  if (config.NODE_ENV === 'test') app.use(responseContract(openapi, config.PUBLIC_URL));
  // Upgrades bypass Express: their address is read as req.ip reads it (proxy-addr with the trust proxy setting).
  const trusted = app.get('trust proxy fn') as Parameters<typeof proxyaddr>[1];
  const sockets = new SocketRouter(services, auth, (req) => proxyaddr(req, trusted));

  // The dashboard renders its own inline scripts: mounted before helmet's strict CSP applies. The docs
  // page gets helmet's full browser set; API answers the headers that matter for JSON (OWASP REST).
  mountQueueBoard(app, services, auth);
  // The API descriptions (~1 MB of JSON) and Swagger UI's assets (~2 MB) are compressed: uncompressed, the docs
  // page took tens of seconds to show on a slow link. API answers are not (small, and compression costs CPU).
  app.use(['/docs', '/openapi.json', '/asyncapi.json'], compression());
  mountDocs(app);
  mountMailLinkPages(app, config.APP_URL);
  // CalDAV speaks XML and iCalendar with its own errors (not problem+json): mounted before the API's handlers.
  mountCalDav(app, services);
  app.use(helmet(apiSecurityHeaders));
  // Without configured origins no cross-origin call is allowed, which is the browsers' default: no middleware needed.
  const origins = config.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (origins.length)
    app.use(
      cors({
        origin: origins.includes('*') ? true : origins,
        // ETag: a part PUT's answer names the part for the completion of a resumable upload.
        exposedHeaders: ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'ETag'],
        maxAge: 600,
      }),
    );

  table.mount(app);
  const routes = (tag: string) => new Routes(services, auth, openapi, tag, table);
  systemRoutes(routes('System'), services, openapi, sockets);
  localStorageRoutes(routes('Storage'), services);
  const handle = (prefix: string, handler: RequestHandler) => void app.use(prefix, handler);
  const handleErrors = (prefix: string, handler: ErrorRequestHandler) => void app.use(prefix, handler);
  for (const mount of apiModules) mount({ routes, sockets, services, handle, handleErrors });

  app.use(notFoundHandler);
  app.use(problemHandler(logger));
  return { app, sockets, openapi, auth };
}

/** CSP that loads nothing and forbids framing, HSTS, nosniff, X-Frame-Options DENY, no referrer. */
const apiSecurityHeaders: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};
