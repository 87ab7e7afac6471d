import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/**
 * A local webhook receiver on a free port. `answer(path, n)` decides the status of the n-th request (1-based)
 * on a path; `'hang'` never answers (until the server closes), for timeouts. `delayMs` makes it a slow one: each
 * request is recorded when its body arrived and answered that much later (`answering` counts those waiting).
 */
export async function startReceiver(
  answer: (path: string, n: number) => number | 'hang' = () => 200,
  options: { delayMs?: number } = {},
) {
  const received: Received[] = [];
  const counts = new Map<string, number>();
  let open = 0;
  let answering = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      const status = answer(path, n);
      if (status === 'hang') {
        open++;
        res.on('close', () => open--);
        return;
      }
      const send = () =>
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : `no: ${status}`);
      if (!options.delayMs) return send();
      answering++;
      setTimeout(() => {
        answering--;
        if (!res.destroyed) send();
      }, options.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((r) => r.path === path),
    get hanging() {
      return open;
    },
    get answering() {
      return answering;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
