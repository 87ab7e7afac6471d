import type { Request, Response } from 'express';
import type { Logger } from '../../../lib/logger';
import { errorBody, XML_HEADER } from '../../../domain/cloud/webdav/multistatus';
import { AppError, tooLarge } from '../../../lib/errors';

/** Reading WebDAV request bodies and writing its answers (XML, errors). */

export const XML_TYPE = 'application/xml; charset=utf-8';

const bodyLength = (req: Request) => Number(req.headers['content-length'] ?? 0);
export const hasBody = (req: Request) => req.headers['transfer-encoding'] !== undefined || bodyLength(req) > 0;

/** The whole body as text, at most `limit` bytes (413 `payload_too_large` past it, read no further). */
export async function readBody(req: Request, limit: number): Promise<string> {
  if (bodyLength(req) > limit) throw tooLarge('payload_too_large', `An XML body may have at most ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge('payload_too_large', `An XML body may have at most ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and drops a body the method does not use (so the connection can be reused). */
export async function drain(req: Request): Promise<void> {
  if (!hasBody(req) || req.readableEnded) return;
  for await (const _chunk of req as AsyncIterable<Buffer>) void _chunk;
}

export function sendXml(res: Response, status: number, xml: string, headers: Record<string, string> = {}): void {
  res
    .status(status)
    .set(headers)
    .set('Content-Type', XML_TYPE)
    .send(xml.startsWith('<?xml') ? xml : XML_HEADER + xml);
}

/** RFC 4918 (and 4331) pre- and postconditions the error body names, by problem code. */
const CONDITIONS: Record<string, (err: AppError) => string> = {
  locked: (err) => `<d:lock-token-submitted><d:href>${lockRootOf(err)}</d:href></d:lock-token-submitted>`,
  lock_token_mismatch: () => '<d:lock-token-matches-request-uri/>',
  propfind_infinite: () => '<d:propfind-finite-depth/>',
  quota_exceeded: () => '<d:quota-not-exceeded/>',
};
const lockRootOf = (err: AppError) => /\((.*)\)/.exec(err.message)?.[1] ?? '';

/**
 * A problem as WebDAV answers it: the status (a refused quota is 507 Insufficient Storage, RFC 4918 11.5), an XML
 * `error` body with the condition and the problem's code and message; HEAD gets no body. Unexpected errors are
 * logged and answered 500 without details.
 */
export function sendDavError(req: Request, res: Response, err: unknown, logger: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let problem: AppError;
  if (err instanceof AppError) problem = err;
  else if ((err as { type?: string }).type === 'entity.too.large')
    problem = tooLarge('payload_too_large', 'The body is too large');
  else {
    logger.error({ err }, 'WebDAV request failed');
    problem = new AppError(500, 'internal_error', 'Internal error');
  }
  const status = problem.code === 'quota_exceeded' ? 507 : problem.status;
  res.status(status).set(problem.headers ?? {});
  if (status === 429 && !res.get('Retry-After')) res.set('Retry-After', '60');
  // Connection: close lets a client that sent a body we did not read get the answer without waiting for it.
  if (!req.readableEnded) res.set('Connection', 'close');
  if (req.method === 'HEAD') return void res.end();
  res
    .set('Content-Type', XML_TYPE)
    .send(errorBody(problem.code, problem.message, CONDITIONS[problem.code]?.(problem) ?? undefined));
}
