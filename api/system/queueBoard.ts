import { createHmac } from 'node:crypto';
import type { Express, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Services } from '../../domain/services';
import { unauthorized } from '../../lib/errors';
import { onFirstUse } from '../../lib/lazy';
import { isAccessClaims, type AccessClaims } from '../../lib/tokens';
import type { Authenticator } from '../http/auth';
import { requirePlatformAdmin, secretsMatch } from '../http/guards';

export const QUEUE_BOARD_PATH = '/admin/queues';
const COOKIE = 'queue_board';

/**
 * The Bull dashboard, for platform administrators only. A browser cannot send a Bearer header while it
 * loads the dashboard's pages and assets, so the first visit carries the access token (header or ?token=)
 * and receives an HttpOnly, SameSite=Strict cookie scoped to this path, signed by the app, holding that
 * token's claims and expiring with it. Every dashboard request, its API included, is then checked like an
 * API call: the shared revocation list (log-out, session ended, log out everywhere, account disabled), then
 * the account's state and platform-admin flag. A new token replaces the cookie.
 */
export function mountQueueBoard(app: Express, services: Services, auth: Authenticator): void {
  // The dashboard (bull-board and its UI) is built by its first visit, not at startup (lib/lazy.ts).
  const board = onFirstUse(() => {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { createBullBoard } = require('@bull-board/api') as typeof import('@bull-board/api');
    const { BullMQAdapter } =
      require('@bull-board/api/bullMQAdapter') as typeof import('@bull-board/api/bullMQAdapter');
    const { ExpressAdapter } = require('@bull-board/express') as typeof import('@bull-board/express');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const adapter = new ExpressAdapter();
    adapter.setBasePath(QUEUE_BOARD_PATH);
    createBullBoard({
      queues: services.queues.list().map((q) => new BullMQAdapter(q)),
      serverAdapter: adapter,
      options: { uiConfig: { boardTitle: 'Platform Suite jobs' } },
    });
    return adapter.getRouter() as RequestHandler;
  });
  const cookie = new BoardCookie(services.deriveSecret('queue-board-cookie'));
  const platformAdmin = requirePlatformAdmin(services);

  const gate: RequestHandler = async (req, res, next) => {
    const presented = req.headers.authorization || req.query.token;
    const fromCookie = presented ? null : cookie.read(req);
    if (fromCookie && (await services.revocations.isRevoked(fromCookie))) {
      cookie.clear(res);
      throw unauthorized('token_revoked', 'The access token of this dashboard session has been revoked');
    }
    req.auth = fromCookie ?? (await auth.verify(req, { ws: true }));
    await platformAdmin(req);
    if (!req.path.startsWith('/static/')) res.set('Cache-Control', 'no-store');
    if (fromCookie) return next();
    cookie.issue(res, req.auth, services.config.production);
    if (req.query.token)
      return res.redirect(303, req.originalUrl.replace(/([?&])token=[^&]*&?/, '$1').replace(/[?&]$/, ''));
    next();
  };

  app.use(QUEUE_BOARD_PATH, helmet(dashboardSecurityHeaders), gate, (req, res, next) => board()(req, res, next));
}

/** The dashboard cookie: base64url(JSON claims).HMAC, valid until the token it came from expires. */
class BoardCookie {
  constructor(private readonly secret: Buffer | string) {}

  private sign(value: string): string {
    return createHmac('sha256', this.secret).update(value).digest('base64url');
  }

  read(req: Request): AccessClaims | null {
    const raw = new RegExp(`(?:^|;\\s*)${COOKIE}=([^;]+)`).exec(req.headers.cookie ?? '')?.[1];
    const [value, sig] = decodeURIComponent(raw ?? '').split('.');
    if (!value || !sig || !secretsMatch(sig, this.sign(value))) return null;
    try {
      const claims = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as object;
      return isAccessClaims(claims) && claims.exp * 1000 > Date.now() ? claims : null;
    } catch {
      return null;
    }
  }

  issue(res: Response, c: AccessClaims, secure: boolean): void {
    const value = Buffer.from(
      JSON.stringify({ userId: c.userId, tenantId: c.tenantId, sid: c.sid, jti: c.jti, iat: c.iat, exp: c.exp }),
    ).toString('base64url');
    res.cookie(COOKIE, `${value}.${this.sign(value)}`, {
      httpOnly: true,
      sameSite: 'strict',
      secure,
      path: QUEUE_BOARD_PATH,
      maxAge: Math.max(0, c.exp * 1000 - Date.now()),
    });
  }

  clear(res: Response): void {
    res.clearCookie(COOKIE, { path: QUEUE_BOARD_PATH });
  }
}

/**
 * What the dashboard page needs, nothing more: its own scripts, styles and locale files; inline styles
 * (its loading placeholder and React style props); the IBM Plex fonts its page links from Google Fonts;
 * data: images. Its only inline <script> is a JSON data block (type="application/json"), which CSP does not
 * treat as script. No framing, no referrer, HSTS, nosniff.
 */
const dashboardSecurityHeaders: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
      fontSrc: ["'self'", 'https://fonts.gstatic.com'],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      objectSrc: ["'none'"],
    },
  },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginResourcePolicy: { policy: 'same-origin' },
};
