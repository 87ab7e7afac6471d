import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../../lib/logger';
import type { Metrics } from '../../lib/metrics';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request id (observe), in log lines and problems. */
    id?: string;
  }
}

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

/** A request line's level: 5xx are errors, except 503 (a dependency down: expected, logged without a stack). */
const lineLevel = (status: number) => (status === 503 ? 'warn' : status >= 500 ? 'error' : 'info');

/** What the request line of `observe` needs: the logger, and the URL as it may be logged (credentials in the path replaced). */
export interface RequestLog {
  logger: Logger;
  redactPath(url: string): string;
}

/**
 * Request id, request duration by method, route template and status, and (when a logger is given and lets info
 * through) one JSON line per request, in one middleware and one listener. The line is a single pino call with a
 * small object (id, method, URL, route, status, time, address, user agent, referer): pino-http's per-request child
 * logger and its serializers' copies of every header cost 0.3-1 ms of CPU per request; this costs a pino line.
 * Credentials never reach it: no credential header is read, the path's secret parameters are replaced here and
 * every URL's sensitive query values by the logger (lib/logger.ts). The problem handler logs errors with
 * their stack at any level. Histogram children are kept per label set: prom-client would otherwise hash the
 * labels on every observation.
 */
export function observe(metrics: Metrics, log?: RequestLog): RequestHandler {
  const children = new Map<string, { observe(value: number): void }>();
  const line = log?.logger.isLevelEnabled('info') ? log : undefined;
  return (req, res, next) => {
    req.id = requestId(req, res);
    const start = performance.now();
    res.once('close', () => {
      const ms = performance.now() - start;
      const route = routeOf(req);
      const status = res.statusCode;
      const key = `${req.method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) children.set(key, (child = metrics.httpDuration.labels(req.method, route, String(status))));
      child.observe(ms / 1000);
      if (!line || route === '/health' || route === '/metrics') return;
      const { headers } = req;
      line.logger[res.writableFinished ? lineLevel(status) : 'warn'](
        {
          req: {
            id: req.id,
            method: req.method,
            url: line.redactPath(req.originalUrl),
            route,
            remoteAddress: req.ip,
            headers: { 'user-agent': headers['user-agent'], referer: headers.referer },
          },
          res: { statusCode: status },
          responseTime: Math.round(ms * 10) / 10,
        },
        res.writableFinished ? 'request completed' : 'request aborted',
      );
    });
    next();
  };
}
