import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import type { Metrics } from '../../lib/metrics';

/** Process-unique prefix + counter: unique enough to correlate logs, far cheaper than a UUID per request. */
const prefix = randomBytes(4).toString('hex');
let counter = 0;

/** The request id: the caller's X-Request-Id when sane (Heroku's router sets one), else a new one; echoed back. */
export function requestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id =
    typeof given === 'string' && given.length <= 128 && /^[\w.:-]+$/.test(given)
      ? given
      : `${prefix}-${(++counter).toString(36)}`;
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The route template of a handled request ("/rooms/:id/open"), never the raw URL, which would explode the label set. */
const routeOf = (req: Request) =>
  req.route ? `${req.baseUrl}${req.route.path === '/' && req.baseUrl ? '' : String(req.route.path)}` : 'unmatched';

/**
 * Request id (unless pino-http assigns it) and request duration by method, route template and status, in one
 * middleware. Histogram children are kept per label set: prom-client would otherwise hash the labels on every
 * observation.
 */
export function observe(metrics: Metrics, options: { assignId: boolean }): RequestHandler {
  const children = new Map<string, { observe(value: number): void }>();
  return (req, res, next) => {
    if (options.assignId) req.id = requestId(req, res);
    const start = performance.now();
    res.once('finish', () => {
      const route = routeOf(req);
      const key = `${req.method} ${res.statusCode} ${route}`;
      let child = children.get(key);
      if (!child) children.set(key, (child = metrics.httpDuration.labels(req.method, route, String(res.statusCode))));
      child.observe((performance.now() - start) / 1000);
    });
    next();
  };
}
