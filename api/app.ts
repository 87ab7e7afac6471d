import { randomUUID } from 'node:crypto';
import express, { type Express, type RequestHandler } from 'express';
import cors from 'cors';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import type { Services } from '../domain/services';
import { Authenticator } from './http/auth';
import { OpenApiRegistry } from './http/openapi';
import { notFoundHandler, problemHandler } from './http/problems';
import { Routes } from './http/routes';
import { apiModules } from './modules';
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
(403 \`module_not_entitled\`); entitlement changes reach every instance within seconds.`;

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
  app.set('trust proxy', trustProxy(config.TRUST_PROXY));

  app.use(
    pinoHttp({
      logger,
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
    }),
  );
  app.use(httpMetrics(metrics.httpDuration));

  const auth = new Authenticator(services);
  const openapi = new OpenApiRegistry({ title: 'Platform Suite API', version: process.env.npm_package_version ?? '0.1.0', description: API_DESCRIPTION });
  const sockets = new SocketRouter(services, auth);

  // The dashboard renders its own inline scripts: mounted before helmet's strict CSP applies.
  mountQueueBoard(app, services, auth);
  app.use(helmet());
  const origins = config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean);
  app.use(cors({ origin: origins.includes('*') ? true : origins, exposedHeaders: ['X-Request-Id', 'Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy'], maxAge: 600 }));

  const routes = (tag: string) => {
    const r = new Routes(services, auth, openapi, tag);
    app.use(r.router);
    return r;
  };
  systemRoutes(routes('System'), services, openapi);
  localStorageRoutes(routes('Storage'), services);
  for (const mount of apiModules) mount({ routes, sockets, services });
  mountDocs(app);

  app.use(notFoundHandler);
  app.use(problemHandler(logger));
  return { app, sockets, openapi, auth };
}

/** Request duration by route template (never by raw URL, which would explode the label set). */
function httpMetrics(histogram: Services['metrics']['httpDuration']): RequestHandler {
  return (req, res, next) => {
    const end = histogram.startTimer();
    res.on('finish', () => {
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      end({ method: req.method, route, status: res.statusCode });
    });
    next();
  };
}
