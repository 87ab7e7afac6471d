import { STATUS_CODES } from 'node:http';
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { resolveScimToken, type ScimPrincipal } from '../../domain/identity/scim/resolveScimToken';
import { SCIM_TYPE_OF_CODE } from '../../domain/identity/scim/scimProblem';
import type { Services } from '../../domain/services';
import { isDependencyDown } from '../../lib/dependencies';
import { AppError, badRequest, unauthorized } from '../../lib/errors';
import { inputProblems, MAX_JSON_DEPTH, nestsDeeperThan } from '../../lib/json';
import { SCIM_ERROR_SCHEMA, SCIM_MEDIA_TYPE } from './scimViews';

/**
 * The SCIM surface's edge: its bearer token, its JSON bodies (application/scim+json or application/json) and its
 * error format (RFC 7644 3.12), answered here for every request under /scim: the shared problem+json handler
 * never sees them, and answers every other route as before.
 */

declare module 'express-serve-static-core' {
  interface Request {
    scim?: ScimPrincipal;
  }
}

/** The principal the SCIM token middleware set (every /scim/v2 route runs it first). */
export function scimPrincipalOf(req: { scim?: ScimPrincipal }): ScimPrincipal {
  if (!req.scim) throw new AppError(500, 'internal_error', 'A SCIM route ran without its token middleware');
  return req.scim;
}

/** `Authorization: Bearer scim_...` of an organisation: else 401 (no lookup for a value of another shape). */
export const requireScimToken =
  (services: Services): RequestHandler =>
  (req, _res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    void (match ? resolveScimToken(services, match[1]) : Promise.resolve(null)).then((principal) => {
      if (!principal)
        return next(unauthorized('scim_token_invalid', 'The SCIM bearer token is missing, unknown or revoked'));
      req.scim = principal;
      next();
    }, next);
  };

const parser = express.json({
  type: [SCIM_MEDIA_TYPE, 'application/json'],
  limit: '100kb',
  verify: (_req, _res, bytes) => {
    if (nestsDeeperThan(bytes))
      throw badRequest('json_too_deep', `JSON may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`);
  },
});

/** A JSON body (SCIM or plain JSON media type) holding only storable text; else 400 / 415. */
export const scimBody: RequestHandler[] = [
  parser,
  (req, _res, next) => {
    if (req.body === undefined) {
      if (!req.headers['content-type'] && Number(req.headers['content-length'] ?? 0) === 0)
        return next(badRequest('scim_invalid_syntax', 'A JSON request body is required'));
      return next(new AppError(415, 'unsupported_media_type', `The request body must be ${SCIM_MEDIA_TYPE}`));
    }
    const problems = inputProblems(req.body);
    if (problems.length)
      return next(badRequest('scim_invalid_value', `${problems[0].field || 'The body'} ${problems[0].message}`));
    next();
  },
];

const bodyParserErrors: Record<string, [number, string]> = {
  'entity.parse.failed': [400, 'The request body is not valid JSON'],
  'entity.too.large': [413, 'The request body is larger than 100kb'],
  'encoding.unsupported': [415, 'The request body encoding is not supported'],
  'charset.unsupported': [415, 'The request body charset is not supported'],
  'request.aborted': [400, 'The request was aborted by the client'],
  'request.size.invalid': [400, 'The request body size does not match its Content-Length'],
};

/** Writes a SCIM error. Routes' answers are checked against /openapi.json in tests, through res.json. */
export function sendScimError(res: Response, status: number, detail: string, scimType?: string): void {
  const body = {
    schemas: [SCIM_ERROR_SCHEMA],
    status: String(status),
    ...(scimType ? { scimType } : {}),
    detail,
  };
  res.status(status).type(SCIM_MEDIA_TYPE).json(body);
}

/** Whether a route of the request's path and method took it (else: the route table's 405, or a 404). */
const routeTook = (req: Request) => {
  const methods = (req.route as { methods?: Record<string, boolean> } | undefined)?.methods ?? {};
  return !!methods[req.method === 'HEAD' ? 'get' : req.method.toLowerCase()];
};

/** Every error of a /scim/v2 route as a SCIM error; nothing a client sent is a 500. */
export function scimErrorHandler(): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    // A method the path does not take (405 with Allow) is the route table's answer, the same on every path.
    if (res.headersSent || !routeTook(req)) return next(err);
    if (err instanceof AppError) {
      for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
      if (err.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="SCIM"');
      const scimType = SCIM_TYPE_OF_CODE[err.code] ?? (err.status === 400 ? 'invalidValue' : undefined);
      const detail = err.errors?.length
        ? `${err.message}: ${err.errors.map((e) => `${e.field} ${e.message}`).join('; ')}`
        : err.message;
      return sendScimError(res, err.status, detail, scimType);
    }
    const type = (err as { type?: string } | null)?.type;
    if (type && bodyParserErrors[type]) {
      const [status, detail] = bodyParserErrors[type];
      return sendScimError(res, status, detail, status === 400 ? 'invalidSyntax' : undefined);
    }
    if (err instanceof UniqueConstraintViolationException)
      return sendScimError(res, 409, 'A resource with these values exists', 'uniqueness');
    if (isDependencyDown(err)) {
      res.setHeader('Retry-After', '1');
      return sendScimError(res, 503, 'A backing service is unavailable; retry shortly');
    }
    const status = (err as { status?: number } | null)?.status;
    if (status && status >= 400 && status < 500)
      return sendScimError(
        res,
        status,
        STATUS_CODES[status] ?? 'Bad request',
        status === 400 ? 'invalidValue' : undefined,
      );
    // Not the client's doing: the shared handler logs it and answers 500.
    next(err);
  };
}
