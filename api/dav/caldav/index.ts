import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { DAV_PREFIX } from '../../../domain/cloud/webdav/paths';
import { tenantContext } from '../../../domain/context';
import { openDavCalendar } from '../../../domain/core/booking/caldav/davCalendar';
import { DavProblem } from '../../../domain/core/booking/caldav/davProblem';
import { verifyAppPassword } from '../../../domain/identity/verifyAppPassword';
import type { Services } from '../../../domain/services';
import { AppError } from '../../../lib/errors';
import { DAV_ROOT, get, propfind, put, remove, report, targetOf, xmlBody, type DavRequestContext } from './handlers';
import { BadXml, davError } from './xml';

/** Largest request body a CalDAV request may carry (an event with its attachments inline stays far below). */
export const CALDAV_MAX_BODY_BYTES = 1024 * 1024;

const METHODS = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT';
const REALM = 'Basic realm="Platform Suite CalDAV", charset="UTF-8"';

function sendDav(res: Response, status: number, condition: { ns: string; name: string } | null, message: string) {
  if (condition)
    res
      .status(status)
      .type('application/xml; charset=utf-8')
      .send(davError(condition.ns, condition.name, message));
  else res.status(status).type('text/plain; charset=utf-8').send(`${message}\n`);
}

/** The Basic credentials of a request, or null. */
function basic(req: Request): { login: string; secret: string } | null {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(req.header('authorization') ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { login: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/**
 * The CalDAV server (RFC 4791 over WebDAV, RFC 4918) of members' calendars under /dav, discovered through
 * /.well-known/caldav (RFC 6764). HTTP Basic with an app password of scope `caldav` (login: the account's
 * e-mail), never the account password; 401 with a Basic challenge otherwise, 429 with Retry-After when the
 * sign-in throttle holds the login or address. Bodies over CALDAV_MAX_BODY_BYTES are 413, malformed XML 400.
 */
export function mountCalDav(app: Express, services: Services): void {
  const base = services.config.PUBLIC_URL.replace(/\/$/, '');
  app.all(['/.well-known/caldav', '/.well-known/caldav/'], (req, res) => {
    res.redirect(301, `${DAV_ROOT}/`);
  });
  const router = express.Router();
  // The drive's WebDAV (domain/cloud/webdav) shares the /dav root: its requests pass by unread (PUTs stream).
  router.use((req, _res, next) => {
    const path = `${DAV_ROOT}${req.path}`;
    if (path === DAV_PREFIX || path.startsWith(`${DAV_PREFIX}/`)) next('router');
    else next();
  });
  router.use(express.text({ type: () => true, limit: CALDAV_MAX_BODY_BYTES }));
  router.use(async (req: Request, res: Response, next: NextFunction) => {
    res.set('DAV', '1, 3, calendar-access');
    res.set('Allow', METHODS);
    if (req.method === 'OPTIONS') {
      res.status(200).end();
      return;
    }
    try {
      const credentials = basic(req);
      const principal = credentials
        ? await verifyAppPassword(services, credentials.login, credentials.secret, 'caldav', req.ip ?? 'unknown')
        : null;
      if (!principal) {
        res.set('WWW-Authenticate', REALM);
        sendDav(res, 401, null, 'Sign in with your e-mail and an app password of scope caldav');
        return;
      }
      const ctx = tenantContext(services, principal.tenantId, principal.userId);
      const target = targetOf(`${DAV_ROOT}${req.path}`, principal.userId);
      if (!target) throw new DavProblem(404, null, 'no such resource');
      const cal = await openDavCalendar(ctx);
      const text = typeof req.body === 'string' ? req.body : '';
      const isXml = req.method === 'PROPFIND' || req.method === 'REPORT';
      const x: DavRequestContext = {
        cal,
        email: principal.email,
        target,
        body: isXml ? xmlBody(text) : null,
        base,
        req,
        res,
      };
      switch (req.method) {
        case 'PROPFIND':
          return await propfind(x);
        case 'REPORT':
          return await report(x);
        case 'GET':
        case 'HEAD':
          return await get(x, req.method === 'HEAD');
        case 'PUT':
          return await put(x, text);
        case 'DELETE':
          return await remove(x);
        default:
          throw new DavProblem(405, null, `${req.method} is not supported here`);
      }
    } catch (err) {
      next(err);
    }
  });
  router.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    void next;
    if (err instanceof DavProblem) return sendDav(res, err.status, err.condition, err.message);
    if (err instanceof BadXml) return sendDav(res, 400, null, err.message);
    if (err instanceof AppError && err.status === 429) {
      for (const [k, v] of Object.entries(err.headers ?? {})) res.set(k, v);
      return sendDav(res, 429, null, err.message);
    }
    if (err instanceof AppError && err.status === 404) return sendDav(res, 404, null, err.message);
    const status = (err as { status?: number; type?: string }).status;
    if (status === 413) return sendDav(res, 413, null, `a CalDAV body is at most ${CALDAV_MAX_BODY_BYTES} bytes`);
    if (status === 400 || status === 415) return sendDav(res, status, null, 'unreadable body');
    services.logger.error({ err }, 'caldav request failed');
    sendDav(res, 500, null, 'internal error');
  });
  app.use(DAV_ROOT, router);
}
