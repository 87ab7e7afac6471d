import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import {
  DriverException,
  NotFoundError,
  UniqueConstraintViolationException,
  ForeignKeyConstraintViolationException,
} from '@mikro-orm/core';
import { INSTANT_RANGE } from '../../lib/calendar';
import { isDependencyDown } from '../../lib/dependencies';
import { AppError, type FieldError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldError[];
  instance?: string;
  requestId?: string;
}

/** Writes an RFC 9457 problem document. `type` is a relative URI naming the stable `code`. */
export function sendProblem(res: Response, status: number, code: string, detail: string, errors?: FieldError[]): void {
  const problem: Problem = {
    type: `/problems/${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(errors?.length ? { errors } : {}),
    instance: res.req.originalUrl.split('?')[0],
    requestId: String(res.req.id ?? ''),
  };
  if (status === 401)
    res.setHeader('WWW-Authenticate', `Bearer error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`);
  res.status(status).type('application/problem+json').json(problem);
}

/**
 * A problem as a whole HTTP/1.1 answer, for a socket with no Express response (a refused WebSocket upgrade, a
 * request Node could not parse); the connection closes after it.
 */
export function rawProblemAnswer(
  status: number,
  code: string,
  detail: string,
  headers: Record<string, string> = {},
): string {
  const body = JSON.stringify({
    type: `/problems/${code}`,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    code,
  });
  const extra = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`;
}

export const sendAppError = (res: Response, err: AppError) => {
  for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
  sendProblem(res, err.status, err.code, err.message, err.errors);
};

/** Errors raised by body-parser (express.json / raw), identified by their `type`. */
const bodyParserErrors: Record<string, [number, string, string]> = {
  'entity.parse.failed': [400, 'malformed_json', 'The request body is not valid JSON'],
  'entity.too.large': [413, 'payload_too_large', 'The request body is larger than this route accepts'],
  'encoding.unsupported': [415, 'unsupported_encoding', 'The request body encoding is not supported'],
  'charset.unsupported': [415, 'unsupported_charset', 'The request body charset is not supported'],
  'request.aborted': [400, 'request_aborted', 'The request was aborted by the client'],
  'request.size.invalid': [400, 'request_size_invalid', 'The request body size does not match its Content-Length'],
};

/**
 * PostgreSQL refusing a value a client sent: 22P02 invalid text representation, 22P05 untranslatable character
 * (\u0000 in jsonb), 22021 character not in repertoire (NUL in text).
 */
const invalidInput = new Set(['22P02', '22P05', '22021']);

/**
 * PostgreSQL 22001 string_data_right_truncation ("value too long for type character varying(n)"): text longer
 * than its column. The DTOs' @Length/@MaxLength (api/http/dtos.ts) count as PostgreSQL does, so this is a safety
 * net for a limit a DTO lacks: a 400, never a 500. MikroORM wraps it as a plain DriverException (code kept);
 * a raw Knex query throws pg's DatabaseError, also carrying the code.
 */
const isTooLong = (e: Error) =>
  (e as { code?: unknown }).code === '22001' && (e instanceof DriverException || 'severity' in e);

/**
 * PostgreSQL 22008 datetime_field_overflow, 22009 invalid_time_zone_displacement_value: an instant outside
 * 0001-9999 reached a statement ("+010000-01-01T..." as Date.toISOString writes year 10000). Instant fields are
 * bounded (api/http/dtos.ts IsInstant) and derived ones checked (lib/dates.ts checkStorable): a safety net, a 400.
 */
const dateOutOfRange = new Set(['22008', '22009']);

/** The one place errors become HTTP answers. Nothing a client sent produces a 500. */
export function problemHandler(logger: Logger): ErrorRequestHandler {
  // In an outage every request fails alike: one line a second says so, with how many were not logged.
  let quietUntil = 0;
  let quieted = 0;
  return (err: unknown, req: Request, res: Response, next) => {
    if (res.headersSent) return next(err);
    if (err instanceof AppError) return sendAppError(res, err);
    const e = err instanceof Error ? err : new Error(String(err));
    const type = (e as { type?: string }).type;
    if (type && bodyParserErrors[type]) {
      const [status, code, detail] = bodyParserErrors[type];
      return sendProblem(res, status, code, detail);
    }
    if (e instanceof NotFoundError) return sendProblem(res, 404, 'not_found', 'Resource not found');
    if (e instanceof UniqueConstraintViolationException)
      return sendProblem(res, 409, 'already_exists', 'A resource with these values already exists');
    if (e instanceof ForeignKeyConstraintViolationException)
      return sendProblem(res, 409, 'conflict', 'The resource is referenced by, or references, another one');
    if (isDependencyDown(e)) {
      // PostgreSQL or Redis is down, stalled or saturated (lib/dependencies.ts): the client may retry.
      if (Date.now() >= quietUntil) {
        logger.warn({ err: e, reqId: req.id, notLogged: quieted }, 'dependency unavailable');
        quietUntil = Date.now() + 1000;
        quieted = 0;
      } else quieted++;
      res.setHeader('Retry-After', '1');
      return sendProblem(res, 503, 'dependency_unavailable', 'A backing service is unavailable; retry shortly');
    }
    if (isTooLong(e))
      return sendProblem(res, 400, 'validation_failed', 'A text value is longer than its field accepts');
    if (e instanceof DriverException && dateOutOfRange.has((e as { code?: string }).code ?? ''))
      return sendProblem(
        res,
        400,
        'validation_failed',
        `A date or time is outside what can be stored: instants lie ${INSTANT_RANGE}`,
      );
    if (e instanceof DriverException && invalidInput.has((e as { code?: string }).code ?? ''))
      return sendProblem(
        res,
        400,
        'invalid_input',
        'A value has an invalid format or characters that cannot be stored',
      );
    const status = (e as { status?: number }).status;
    if (status && status >= 400 && status < 500) return sendProblem(res, status, 'bad_request', e.message);
    logger.error({ err: e, reqId: req.id }, 'unhandled error');
    sendProblem(res, 500, 'internal_error', 'An unexpected error occurred; it has been logged');
  };
}

export const notFoundHandler: RequestHandler = (req, res) =>
  sendProblem(res, 404, 'route_not_found', `No route ${req.method} ${req.path}`);
