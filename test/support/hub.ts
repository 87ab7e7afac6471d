import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface HubDelivery {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  raw: string;
}

/** A stand-in for the real-time hub: records what modules POST to /<module>/notify; can be told to fail. */
export interface FakeHub {
  url: string;
  /** Deliveries it accepted (answered 2xx). */
  received: HubDelivery[];
  /** Every request, refused ones included. */
  attempts: number;
  /** Status to answer (default 204). */
  status: number;
  events(): string[];
  close(): Promise<void>;
}

export async function startFakeHub(): Promise<FakeHub> {
  const hub: FakeHub = {
    url: '',
    received: [],
    attempts: 0,
    status: 204,
    events: () => hub.received.map((r) => String(r.body.event)),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      hub.attempts++;
      if (hub.status < 300)
        hub.received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: JSON.parse(raw) as Record<string, unknown>,
          raw,
        });
      res.statusCode = hub.status;
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  hub.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return hub;
}

/** What a hub checks: the shared secret header, and the HMAC-SHA256 of the raw body (timing-safe). */
export function signedWith(delivery: HubDelivery, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(delivery.raw).digest('hex')}`);
  const given = Buffer.from(String(delivery.headers['x-webhook-signature'] ?? ''));
  return (
    delivery.headers['x-webhook-secret'] === secret &&
    given.length === expected.length &&
    timingSafeEqual(given, expected)
  );
}
