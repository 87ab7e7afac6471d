import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local e-invoicing platform speaking lib/einvoice.ts's protocol; it dedupes on Idempotency-Key like a real one.
 * `format` is the syntax it takes documents in (default factur-x): another one, or bytes that are not what their
 * mimeType says, answer 415. `delayMs` holds each submission that long before answering (a real platform's latency).
 */
export function fakePlatform(options: { delayMs?: number; format?: 'factur-x' | 'cii' | 'ubl' } = {}) {
  const posts: { key: string; body: Record<string, unknown> }[] = [];
  const documents = new Map<string, string>();
  const lifecycle = new Map<string, { id: string; status: string; at: string; reason?: string }[]>();
  /** Documents whose lifecycle read answers 500. */
  const unreadable = new Set<string>();
  /** Statuses reported (POST /statuses) by Idempotency-Key. */
  const statuses = new Map<string, { id: string; body: Record<string, unknown> }>();
  /** E-reports received (POST /ereports) by Idempotency-Key, and every attempt with its key. */
  const ereports = new Map<string, { id: string; body: Record<string, unknown> }>();
  const ereportPosts: { key: string; body: Record<string, unknown> }[] = [];
  /** While true, POST /ereports answers 503 (an outage of the platform's e-reporting). */
  const outage = { ereports: false };
  let failures = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const reply = (status: number, body: unknown) =>
        options.delayMs && req.method === 'POST'
          ? void setTimeout(() => send(status, body), options.delayMs)
          : send(status, body);
      if (req.method === 'POST' && req.url === '/invoices') {
        if (req.headers.authorization !== 'Bearer platform-token') return reply(401, { error: 'unauthorized' });
        const key = String(req.headers['idempotency-key']);
        posts.push({ key, body: JSON.parse(raw) });
        if (failures > 0) {
          failures -= 1;
          return reply(503, { error: 'maintenance' });
        }
        const body = JSON.parse(raw) as { number: string; syntax: string; mimeType: string; document: string };
        const bytes = Buffer.from(body.document, 'base64');
        const looksRight =
          body.mimeType === 'application/pdf'
            ? bytes.subarray(0, 5).toString() === '%PDF-'
            : body.mimeType === 'application/xml' && bytes.toString('utf8').trimStart().startsWith('<?xml');
        if (body.syntax !== (options.format ?? 'factur-x') || !looksRight)
          return reply(415, { error: `send ${options.format ?? 'factur-x'}` });
        if (body.number.includes('REJECT')) return reply(422, { error: 'BR-CO-15' });
        if (!documents.has(key)) documents.set(key, `PDP-${documents.size + 1}`);
        return reply(201, { id: documents.get(key), status: 'submitted' });
      }
      if (req.method === 'POST' && req.url === '/statuses') {
        if (req.headers.authorization !== 'Bearer platform-token') return reply(401, { error: 'unauthorized' });
        const key = String(req.headers['idempotency-key']);
        if (failures > 0) {
          failures -= 1;
          return reply(503, { error: 'maintenance' });
        }
        if (!statuses.has(key)) statuses.set(key, { id: `ST-${statuses.size + 1}`, body: JSON.parse(raw) });
        return reply(201, { id: statuses.get(key)!.id });
      }
      if (req.method === 'POST' && req.url === '/ereports') {
        if (req.headers.authorization !== 'Bearer platform-token') return reply(401, { error: 'unauthorized' });
        const key = String(req.headers['idempotency-key']);
        const body = JSON.parse(raw) as Record<string, unknown>;
        ereportPosts.push({ key, body });
        if (outage.ereports) return reply(503, { error: 'e-reporting unavailable' });
        if (failures > 0) {
          failures -= 1;
          return reply(503, { error: 'maintenance' });
        }
        if (!Array.isArray(body.lines) || typeof body.period !== 'object')
          return reply(400, { error: 'not an e-report' });
        if (!ereports.has(key)) ereports.set(key, { id: `ER-${ereports.size + 1}`, body });
        return reply(201, { id: ereports.get(key)!.id });
      }
      const m = /^\/invoices\/([^/]+)\/lifecycle$/.exec(req.url ?? '');
      if (req.method === 'GET' && m)
        return unreadable.has(m[1])
          ? reply(500, { error: 'lifecycle unavailable' })
          : reply(200, { events: lifecycle.get(m[1]) ?? [] });
      reply(404, { error: 'not found' });
    });
  });
  return {
    posts,
    documents,
    lifecycle,
    unreadable,
    statuses,
    ereports,
    ereportPosts,
    outage,
    failNext: (n: number) => (failures = n),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The stack's environment for submitting to a local platform at `url` (its token and name, as the tests expect). */
export const platformEnv = (url: string): Record<string, string> => ({
  EINVOICE_PLATFORM_URL: url,
  EINVOICE_PLATFORM_TOKEN: 'platform-token',
  EINVOICE_PLATFORM_NAME: 'test-pdp',
});
