import { createHash } from 'node:crypto';
import express, { Router, type Express, type Request, type RequestHandler, type Response } from 'express';
import type { ClassConstructor } from 'class-transformer';
import type { ApiKeyPrincipal } from '../../domain/apikeys/resolveApiKey';
import { tenantContext, type TenantContext } from '../../domain/context';
import type { Permission } from '../../domain/identity/permissionCatalogue';
import type { Services } from '../../domain/services';
import type { ApiKeyModule, ApiKeyScope } from '../../entities/apikeys/apiKey';
import { badRequest, AppError } from '../../lib/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../lib/json';
import { isSensitiveName } from '../../lib/logger';
import type { Authenticator, AuthInfo } from './auth';
import {
  neededScope,
  requireApiKey,
  requireInternalSecret,
  requireModule,
  requirePermission,
  requirePlatformAdmin,
  type Guard,
  type ModuleKey,
} from './guards';
import type { OpenApiRegistry, ResponseDoc } from './openapi';
import { rateLimiter, type RateLimitRule } from './rateLimit';
import { toDto } from './validate';

/**
 * Who may call a route:
 *  public    anyone (may still be signed or rate-limited by its own middleware)
 *  user      a valid, unrevoked access token
 *  admin     a platform administrator's access token
 *  internal  X-Internal-Secret (fail-closed)
 *  apiKey    X-Server-API-Key of the `apiKey.module` surface, with the needed scope, of an organisation still
 *            entitled to that module; the handler's ctx is bound to the key's organisation (userId null)
 */
export type Access = 'public' | 'user' | 'admin' | 'internal' | 'apiKey';

export interface RouteSpec<B extends object, Q extends object, P extends object> {
  summary: string;
  description?: string;
  tags?: string[];
  access: Access;
  /** Module the organisation must be entitled to (403 module_not_entitled). */
  module?: ModuleKey;
  /**
   * For access 'apiKey': the surface the key must belong to (also the module its organisation must be
   * entitled to) and the scope it needs: by default `read` for GET and `write` for everything else.
   */
  apiKey?: { module: ApiKeyModule; scope?: ApiKeyScope };
  /** Permission the caller must hold in the active organisation (403 permission_denied). */
  permission?: Permission;
  body?: ClassConstructor<B>;
  /** The body may be left out (no Content-Type, no bytes): it is then validated as `{}`. */
  optionalBody?: boolean;
  query?: ClassConstructor<Q>;
  params?: ClassConstructor<P>;
  /** JSON body limit (default 100kb); larger bodies get 413. */
  bodyLimit?: string;
  /**
   * Keep the body raw (a Buffer) for signature checks: a webhook's JSON delivery, documented as a JSON object
   * whose signature covers its raw bytes (unless `requestBody` documents it otherwise).
   */
  rawBody?: { type: string; limit?: string };
  /**
   * Documents the request body of a route that reads it itself (e.g. streams it) or a raw body: a schema per
   * media type (`{}`: any bytes, no schema), required unless said otherwise. Parses nothing.
   */
  requestBody?: { description: string; content: Record<string, Record<string, unknown>>; required?: boolean };
  rateLimits?: RateLimitRule[];
  /** Extra middleware run after the guards and before validation (e.g. a multipart parser). */
  use?: RequestHandler[];
  /** Success status when the handler returns a plain value (default 200). */
  status?: number;
  response?: ResponseDoc;
  /** Other success statuses the handler answers (with a Reply) with the same body, and what each means. */
  alsoAnswers?: Record<number, string>;
  /** Problem statuses this route can answer beyond the ones derived from its guards. */
  errors?: Record<number, string>;
  /**
   * The media type and schema of this route's error answers when they are not problem+json (a protocol with its
   * own error format, answered by its own error handler: ModuleMount.handleErrors). Documents every problem
   * status of the route with it.
   */
  problemContent?: { contentType: string; schema: Record<string, unknown> };
  /** Security requirements to document for `use` middleware (the access kinds document their own). */
  security?: Record<string, string[]>[];
}

export interface PublicInput<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
  services: Services;
}

export interface UserInput<B, Q, P> extends PublicInput<B, Q, P> {
  auth: AuthInfo;
  /** Tenant-bound EntityManager fork and the caller, created on first use. */
  ctx: TenantContext;
}

export interface ApiKeyInput<B, Q, P> extends PublicInput<B, Q, P> {
  apiKey: ApiKeyPrincipal;
  /** Tenant-bound EntityManager fork of the key's organisation (userId null), created on first use. */
  ctx: TenantContext;
}

type Empty = Record<string, never>;
type InputFor<A extends Access, B extends object, Q extends object, P extends object> = A extends 'user' | 'admin'
  ? UserInput<B, Q, P>
  : A extends 'apiKey'
    ? ApiKeyInput<B, Q, P>
    : PublicInput<B, Q, P>;
type Handler<A extends Access, B extends object, Q extends object, P extends object> = (
  input: InputFor<A, B, Q, P>,
) => Promise<unknown> | unknown;

/** A response other than "200 with this JSON": a status, optional body and headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}
export const created = (body: unknown, location?: string) =>
  new Reply(201, body, location ? { Location: location } : {});
export const accepted = (body: unknown) => new Reply(202, body);
export const noContent = () => new Reply(204);

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * Declares routes once: each becomes an Express route (guards, body parsing, validation, handler) and an
 * OpenAPI operation (parameters and bodies from the DTOs, problems from the guards). Routes stay thin:
 * a handler receives validated input and returns a value, a Reply, or nothing (204).
 */
export class Routes {
  constructor(
    private readonly services: Services,
    private readonly auth: Authenticator,
    private readonly openapi: OpenApiRegistry,
    private readonly tag: string,
    private readonly table: RouteTable,
  ) {}

  get<A extends Access, B extends object = Empty, Q extends object = Empty, P extends object = Empty>(
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    this.add('get', path, spec, handler);
  }
  post<A extends Access, B extends object = Empty, Q extends object = Empty, P extends object = Empty>(
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    this.add('post', path, spec, handler);
  }
  put<A extends Access, B extends object = Empty, Q extends object = Empty, P extends object = Empty>(
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    this.add('put', path, spec, handler);
  }
  patch<A extends Access, B extends object = Empty, Q extends object = Empty, P extends object = Empty>(
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    this.add('patch', path, spec, handler);
  }
  delete<A extends Access, B extends object = Empty, Q extends object = Empty, P extends object = Empty>(
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    this.add('delete', path, spec, handler);
  }

  private add<A extends Access, B extends object, Q extends object, P extends object>(
    method: Method,
    path: string,
    spec: RouteSpec<B, Q, P> & { access: A },
    handler: Handler<A, B, Q, P>,
  ) {
    const { services } = this;
    // A read that declares 304 answers it: its JSON carries an ETag, and a matching If-None-Match gets no body.
    const conditional = method === 'get' && !!spec.alsoAnswers?.[304];
    const guards: Guard[] = [];
    if (spec.access === 'user' || spec.access === 'admin') guards.push(this.auth.guard);
    if (spec.access === 'admin') guards.push(requirePlatformAdmin(services));
    if (spec.access === 'internal') guards.push(requireInternalSecret(services));
    if ((spec.access === 'apiKey') !== !!spec.apiKey || (spec.apiKey && (spec.module || spec.permission))) {
      throw new Error(
        `${method.toUpperCase()} ${path}: access 'apiKey' goes with apiKey: { module }, and neither module nor permission`,
      );
    }
    if (spec.apiKey)
      guards.push(
        requireApiKey(services, spec.apiKey.module, neededScope(method, spec.apiKey.scope)),
        requireModule(services, spec.apiKey.module),
      );
    if (spec.module) guards.push(requireModule(services, spec.module));
    if (spec.permission) guards.push(requirePermission(services, spec.permission));
    const runGuards = async (req: Request) => {
      for (const guard of guards) await guard(req);
    };

    // Guards come first (nothing is parsed for a caller who may not call), then parsing and rate limits.
    const before: RequestHandler[] = [...(spec.use ?? [])];
    if (spec.rawBody) before.push(express.raw({ type: spec.rawBody.type, limit: spec.rawBody.limit ?? '1mb' }));
    else if (spec.body)
      before.push(jsonBody(spec.bodyLimit ?? '100kb'), spec.optionalBody ? emptyBodyAsObject : requireJsonBody);
    for (const rule of spec.rateLimits ?? []) before.push(rateLimiter(services, rule));
    const chain: RequestHandler[] = [];
    if (before.length && guards.length) chain.push((req, _res, next) => void runGuards(req).then(() => next(), next));
    chain.push(...before);
    // Neither parsed nor read by the route (a stream, a raw body): a body sent anyway would be dropped unread.
    const takesBody = !!(spec.body || spec.rawBody || spec.requestBody);

    chain.push(async (req, res) => {
      if (!before.length) await runGuards(req);
      if (!takesBody && hasBody(req)) await refuseBody(req, res);
      const body = spec.body ? await toDto(spec.body, req.body, 'body') : (req.body as B);
      const query = spec.query ? await toDto(spec.query, req.query, 'query') : ({} as Q);
      const params = spec.params ? await toDto(spec.params, req.params, 'params') : ({} as P);
      let ctx: TenantContext | undefined;
      // The guards set what the route's access promises: auth for user/admin, apiKey for apiKey routes.
      const input: PublicInput<B, Q, P> & { auth?: AuthInfo; apiKey?: ApiKeyPrincipal; readonly ctx: TenantContext } = {
        body,
        query,
        params,
        req,
        res,
        services,
        auth: req.auth,
        apiKey: req.apiKey,
        get ctx() {
          const tenantId = req.auth?.tenantId ?? req.apiKey?.tenantId;
          if (!tenantId)
            throw new AppError(500, 'internal_error', 'No tenant context on a route without a token or API key');
          return (ctx ??= tenantContext(services, tenantId, req.auth?.userId ?? null));
        },
      };
      const result = await handler(input as InputFor<A, B, Q, P>);
      if (res.headersSent) return;
      if (result instanceof Reply) {
        res.set(result.headers).status(result.status);
        if (result.body === undefined) res.end();
        else res.json(result.body);
      } else if (result === undefined) {
        res.status(204).end();
      } else if (conditional && (spec.status ?? 200) === 200) {
        sendConditional(req, res, result);
      } else {
        res.status(spec.status ?? 200).json(result);
      }
    });

    this.table.add(method, path, chain);
    this.openapi.add(method, path, { ...spec, tags: spec.tags ?? [this.tag] });
  }
}

/**
 * Express matches routes one after the other. Routes are grouped by their first path segment, each group a
 * Router holding its full paths; one middleware finds the group of a request with a map lookup and hands it
 * over. A request is then tested against its group's routes only, however many modules the suite grows.
 */
export class RouteTable {
  /** Per first segment: its routes, the methods of each of its paths, and a router matching those paths for any method. */
  private readonly groups = new Map<
    string,
    { routes: Router; methods: Map<string, Set<string>>; otherMethod: Router }
  >();

  /** Routes every request of a declared first segment (mounted where the routes belong in the app's order). */
  mount(app: Express): void {
    app.use((req, res, next) => {
      const group = this.groups.get(firstSegment(req.path));
      if (!group) return next();
      group.routes(req, res, (err?: unknown) =>
        err !== undefined
          ? next(err)
          : group.otherMethod(req, res, (e?: unknown) => (e !== undefined ? next(e) : methodNotAllowed(req, next))),
      );
    });
  }

  /**
   * `url` as it may be logged: the value of a declared path parameter that is a credential (`:token` of secret
   * calendar feeds, share links, invitations, integration and booking links) replaced. The request line is
   * serialised before routing, so the declared paths are matched here.
   */
  redactPath(url: string): string {
    const at = url.indexOf('?');
    const path = at < 0 ? url : url.slice(0, at);
    for (const pattern of this.secretPaths) {
      const match = pattern.exec(path);
      if (match)
        return `${match
          .slice(1)
          .map((part, i) => (i % 2 ? CENSOR : part))
          .join('')}${at < 0 ? '' : url.slice(at)}`;
    }
    return url;
  }

  private readonly secretPaths: RegExp[] = [];

  add(method: Method, path: string, chain: RequestHandler[]): void {
    if (
      /:\w+/.test(path) &&
      path.split('/').some((part) => part.startsWith(':') && isSensitiveName(part.slice(1))) &&
      !this.secretPaths.some((p) => p.source === secretPattern(path).source)
    ) {
      this.secretPaths.push(secretPattern(path));
    }
    const segment = firstSegment(path);
    if (segment.startsWith(':') || segment.startsWith('*'))
      throw new Error(`Route ${path} must start with a literal segment`);
    let group = this.groups.get(segment);
    if (!group) this.groups.set(segment, (group = { routes: Router(), methods: new Map(), otherMethod: Router() }));
    group.routes[method](path, ...chain);
    let methods = group.methods.get(path);
    if (!methods) {
      group.methods.set(path, (methods = new Set()));
      // Matched by Express itself, so a path means what it means to the routes; every path the request matches adds its methods.
      const declared = methods;
      group.otherMethod.all(path, (req, _res, next) => {
        for (const m of declared) allowedOf(req).add(m);
        next();
      });
    }
    methods.add(method.toUpperCase());
    if (method === 'get') methods.add('HEAD');
  }
}

/** The methods of the declared paths a request matched, gathered by RouteTable's second router. */
const allowed = new WeakMap<Request, Set<string>>();
const allowedOf = (req: Request) => {
  let found = allowed.get(req);
  if (!found) allowed.set(req, (found = new Set()));
  return found;
};

/**
 * A request no route of its group took: when its path is declared with other methods, 405 `method_not_allowed`
 * with `Allow` (RFC 9110 15.5.6), else on to the 404. OPTIONS keeps Express's own answer (its Allow, or CORS).
 */
function methodNotAllowed(req: Request, next: (err?: unknown) => void): void {
  const methods = allowed.get(req);
  if (!methods?.size || methods.has(req.method) || req.method === 'OPTIONS') return next();
  const allow = [...methods].sort().join(', ');
  next(
    new AppError(405, 'method_not_allowed', `${req.path} does not take ${req.method}; it takes ${allow}`, undefined, {
      Allow: allow,
    }),
  );
}

const CENSOR = '[redacted]';

/** A declared path as a pattern whose groups alternate: literal text, then a sensitive parameter's value, ... */
function secretPattern(path: string): RegExp {
  const parts = path.split(/(\/:\w+)/);
  let source = '^(';
  for (const part of parts) {
    const param = /^\/:(\w+)$/.exec(part);
    if (!param) source += escapeRegExp(part);
    else if (isSensitiveName(param[1])) source += '/)([^/]+)(';
    else source += '/[^/]+';
  }
  return new RegExp(`${source})/?$`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const firstSegment = (path: string) => {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
};

/**
 * express.json, refusing nesting deeper than MAX_JSON_DEPTH with 400 `json_too_deep` from a scan of the raw
 * bytes, before JSON.parse and class-transformer walk them (body-parser keeps the status of what verify throws).
 */
const jsonBody = (limit: string) =>
  express.json({
    limit,
    verify: (_req, _res, bytes) => {
      if (nestsDeeperThan(bytes))
        throw badRequest('json_too_deep', `JSON may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`);
    },
  });

const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Reads at most 1 kB of a body a route does not take (more is refused unread). */
const smallBody = express.raw({ type: () => true, limit: '1kb' });

/**
 * A route that declares no body refuses one with 400 `body_not_allowed`: the client meant something the route
 * would ignore. No body, `Content-Length: 0`, blanks, and `{}` as JSON (what clients that always send JSON send
 * for "nothing") are no body.
 */
async function refuseBody(req: Request, res: Response): Promise<void> {
  const refused = () =>
    badRequest('body_not_allowed', `${req.method} ${req.path} takes no request body (send none, or {})`);
  await new Promise<void>((resolve, reject) =>
    smallBody(req, res, (err?: unknown) =>
      err ? reject((err as { type?: string }).type === 'entity.too.large' ? refused() : err) : resolve(),
    ),
  );
  const text = Buffer.isBuffer(req.body) ? req.body.toString('utf8').trim() : '';
  req.body = undefined;
  if (text !== '' && !(text.replace(/\s/g, '') === '{}' && req.is('application/json'))) throw refused();
}

const sentNothing = (req: Request) => !req.headers['content-type'] && !hasBody(req);

/** A route whose body is optional reads none as `{}`, and refuses other media types like requireJsonBody. */
const emptyBodyAsObject: RequestHandler = (req, res, next) => {
  if (req.body === undefined && sentNothing(req)) req.body = {};
  requireJsonBody(req, res, next);
};

/** A route that takes a body refuses other media types (express.json leaves them unparsed). */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (req.body === undefined) {
    if (sentNothing(req)) {
      throw badRequest('validation_failed', 'A JSON request body is required', [
        { field: 'body', message: 'is required' },
      ]);
    }
    throw new AppError(415, 'unsupported_media_type', 'The request body must be application/json');
  }
  next();
};

/**
 * The JSON answer of a conditional read: an ETag naming its bytes (unless the handler set its own, e.g. the
 * state of what it shows), and 304 without a body when the request's If-None-Match matches it. Other routes
 * carry no ETag (app.ts turns Express's off): they do not declare 304, and hashing every answer costs CPU.
 */
function sendConditional(req: Request, res: Response, body: unknown): void {
  const json = JSON.stringify(body);
  if (!res.get('ETag')) res.set('ETag', `W/"${createHash('sha1').update(json).digest('base64url')}"`);
  if (req.fresh) return void res.status(304).end();
  res.status(200).type('json').send(json);
}
