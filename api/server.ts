import { createServer, maxHeaderSize, type Server, type ServerOptions } from 'node:http';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { servicesFor, type Services } from '../domain/services';
import { runProcess } from '../lib/process';
import { createApp } from './app';
import { rawProblemAnswer } from './http/problems';

export interface WebServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Listens with the app and its WebSocket endpoints. close() stops accepting, ends sockets, drains requests. */
export async function startWeb(services: Services, port = services.config.PORT): Promise<WebServer> {
  const { app, sockets } = createApp(services);
  const server = createServer(serverTimeouts(services.config.HTTP_REQUEST_TIMEOUT_SECONDS), app);
  // A process holds at most this many sockets (requests, idle keep-alive connections and WebSockets alike);
  // beyond it a new connection is closed at once and the router retries another dyno.
  server.maxConnections = services.config.WEB_MAX_CONNECTIONS;
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(err, socket, services.config.HTTP_REQUEST_TIMEOUT_SECONDS),
  );
  sockets.attach(server);
  server.listen(port);
  await once(server, 'listening');
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  return {
    server,
    url,
    async close() {
      sockets.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // In-flight requests get DRAIN_MS to finish; a connection still open then (a client that stopped
      // sending a body it announced, a stalled download) is cut, so shutdown never waits for a client.
      const cut = setTimeout(() => server.closeAllConnections(), DRAIN_MS).unref();
      await closed;
      clearTimeout(cut);
    },
  };
}

/** How long close() lets in-flight requests finish (the router's SIGKILL comes 30 s after SIGTERM). */
const DRAIN_MS = 5000;

/**
 * Timeouts of a dyno behind a router that gives up on a request after 30 s (Heroku's): a request whose
 * headers and body have not all arrived by then gets 408 and its socket is freed, headers alone get a
 * third of that; the limits are checked every second (Node's default sweep is every 30 s, which let a
 * client trickling a byte every 10 s hold a socket past a minute). Idle keep-alive connections are kept
 * longer than the router keeps them (90 s on Heroku's Router 2.0), so the router, not us, closes them:
 * no request is ever sent on a connection we are closing. WebSockets are not affected once upgraded.
 */
function serverTimeouts(requestTimeoutSeconds: number): ServerOptions {
  const requestTimeout = requestTimeoutSeconds * 1000;
  return {
    requestTimeout,
    headersTimeout: Math.min(10_000, requestTimeout),
    keepAliveTimeout: 95_000,
    connectionsCheckingInterval: 1000,
  };
}

/** Node's answers to what it cannot take as a request (by its error code); anything else is a malformed request. */
const clientErrors = (requestTimeoutSeconds: number): Record<string, [number, string, string]> => ({
  HPE_HEADER_OVERFLOW: [
    431,
    'headers_too_large',
    `The request line and headers are larger than the server takes (${maxHeaderSize} bytes)`,
  ],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [
    413,
    'payload_too_large',
    'The chunk extensions of the body are larger than the server takes',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: [
    408,
    'request_timeout',
    `The request did not arrive whole in time (headers within ${Math.min(10, requestTimeoutSeconds)} s, the whole request within ${requestTimeoutSeconds} s)`,
  ],
});

/**
 * A request Node's parser refuses (a malformed request line or header, headers over maxHeaderSize, a request
 * past its timeout) is answered with a problem, as every other refusal is: Node's own answer has no body. A
 * client that went away, or a connection whose answer has begun (a refused request pipelined after an answered
 * one), is only closed.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex, requestTimeoutSeconds: number): void {
  if (err.code === 'ECONNRESET' || !socket.writable || (socket as Socket).bytesWritten > 0)
    return void socket.destroy();
  const [status, code, detail] = clientErrors(requestTimeoutSeconds)[err.code ?? ''] ?? [
    400,
    'malformed_request',
    'The request is not valid HTTP/1.1',
  ];
  socket.end(rawProblemAnswer(status, code, detail), () => socket.destroy());
}

if (require.main === module) {
  void (async () => {
    await runProcess('web', servicesFor('web'), async (services) => {
      const web = await startWeb(services);
      services.logger.info(`web listening on ${services.config.PUBLIC_URL} (port ${services.config.PORT})`);
      return () => web.close();
    });
  })();
}
