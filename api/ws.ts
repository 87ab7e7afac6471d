import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Services } from '../domain/services';
import { AppError } from '../lib/errors';
import type { Authenticator, AuthInfo } from './http/auth';
import { moduleKeys, type ModuleKey } from './http/guards';

export interface SocketRoute {
  /** Module the organisation must be entitled to. */
  module?: ModuleKey;
  /** Largest message accepted, in bytes. */
  maxPayload?: number;
  handle(socket: WebSocket, auth: AuthInfo, req: IncomingMessage): void;
}

/**
 * WebSocket endpoints on the HTTP server: an upgrade is routed by path, authenticated like HTTP (Bearer
 * header or ?token=), checked for the route's module, and refused with a problem+json HTTP answer otherwise.
 */
export class SocketRouter {
  private readonly routes = new Map<string, { route: SocketRoute; wss: WebSocketServer }>();

  constructor(
    private readonly services: Services,
    private readonly auth: Authenticator,
  ) {}

  add(path: string, route: SocketRoute): void {
    if (route.module && !moduleKeys.includes(route.module)) throw new Error(`unknown module ${route.module}`);
    this.routes.set(path, { route, wss: new WebSocketServer({ noServer: true, maxPayload: route.maxPayload ?? 64 * 1024 }) });
  }

  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => void this.upgrade(req, socket, head));
  }

  /** Closes every open socket (server shutdown). */
  close(): void {
    for (const { wss } of this.routes.values()) {
      for (const client of wss.clients) client.close(1001, 'server shutting down');
      wss.close();
    }
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const entry = this.routes.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (!entry) return refuse(socket, 404, 'route_not_found', 'No WebSocket endpoint at this path');
    try {
      const auth = await this.auth.verify(req, { ws: true });
      if (entry.route.module) {
        const entitlements = await this.services.entitlements.get(auth.tenantId);
        if (!entitlements.modules.includes(entry.route.module) || entitlements.suspended) {
          return refuse(socket, 403, 'module_not_entitled', `The subscription of this organisation does not include the ${entry.route.module} module`);
        }
      }
      entry.wss.handleUpgrade(req, socket, head, (ws) => entry.route.handle(ws, auth, req));
    } catch (err) {
      if (err instanceof AppError) return refuse(socket, err.status, err.code, err.message);
      this.services.logger.error({ err }, 'websocket upgrade failed');
      refuse(socket, 503, 'dependency_unavailable', 'The upgrade could not be completed');
    }
  }
}

function refuse(socket: Duplex, status: number, code: string, detail: string): void {
  const body = JSON.stringify({ type: `/problems/${code}`, title: STATUS_CODES[status], status, detail, code });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
