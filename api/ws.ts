import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ipKeyGenerator } from 'express-rate-limit';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Services } from '../domain/services';
import { isDependencyDown } from '../lib/dependencies';
import { AppError } from '../lib/errors';
import { concerns, type Revocation } from '../lib/revocation';
import { SocketLeases } from '../lib/socketLeases';
import type { CloseDoc, PublishedSocket, RefusalDoc, SocketDoc } from './asyncapi';
import { socketContract, upgradeContract } from './http/contract';
import type { Authenticator, AuthInfo } from './http/auth';
import { moduleKeys, type ModuleKey } from './http/guards';
import { rawProblemAnswer } from './http/problems';

/** Largest frame a client may send where the route sets no bound; a larger one closes the socket with 1009. */
const DEFAULT_MAX_FRAME_BYTES = 64 * 1024;

export interface SocketRoute {
  /** Module the organisation must be entitled to. */
  module?: ModuleKey;
  /**
   * Permission the caller must hold in the active organisation while the socket is open: checked before each
   * message and on every RBAC change, closing with 4403 permission_denied. The upgrade does not check it: the
   * endpoint refuses at open in its own way (e.g. an error frame, then the same close).
   */
  permission?: string;
  /** Largest message accepted, in bytes. */
  maxPayload?: number;
  /** Its messages, published in /asyncapi.json (and checked in tests: every frame sent must be declared). */
  doc: SocketDoc;
  handle(socket: WebSocket, auth: AuthInfo, req: IncomingMessage): void;
}

/**
 * Every way the router closes a socket, whatever the endpoint: what it closes with and what /asyncapi.json
 * publishes for each endpoint (docs()), so they cannot drift. The reason is the problem code. On 44xx the client
 * must not reconnect with the same token; on 1013 and 1001 it may reconnect (later). The protocol closes come
 * from the ws library, without a reason.
 */
export const SOCKET_CLOSE = {
  tokenRevoked: {
    code: 4401,
    reason: 'token_revoked',
    description:
      'Logged out, session ended, account disabled or logged out everywhere, or removed from the organisation',
  },
  tokenExpired: {
    code: 4401,
    reason: 'token_expired',
    description:
      'The access token the socket was opened with expired: refresh it (POST /auth/refresh) and reconnect with the new one',
  },
  organizationSuspended: {
    code: 4403,
    reason: 'organization_suspended',
    description: 'The organisation was suspended',
    gated: true,
  },
  moduleNotEntitled: {
    code: 4403,
    reason: 'module_not_entitled',
    description: "The subscription lost the endpoint's module (plan change, end of a trial)",
    gated: true,
  },
  permissionDenied: {
    code: 4403,
    reason: 'permission_denied',
    description: "The caller lost the endpoint's permission (a role change)",
    permissioned: true,
  },
  dependencyUnavailable: {
    code: 1013,
    reason: 'dependency_unavailable',
    description: 'A check could not be made (PostgreSQL or Redis unavailable): reconnect later',
  },
  shuttingDown: {
    code: 1001,
    reason: 'server shutting down',
    description: 'The server is stopping (a deploy or restart): reconnect',
  },
  protocolError: { code: 1002, reason: '', description: 'A frame broke the WebSocket protocol (RFC 6455)' },
  invalidText: { code: 1007, reason: '', description: 'A text frame was not valid UTF-8' },
  tooBig: { code: 1009, reason: '', description: 'A frame was larger than the endpoint accepts (x-max-frame-bytes)' },
} as const satisfies Record<string, CloseDoc & { gated?: true; permissioned?: true }>;

type SocketClose = (typeof SOCKET_CLOSE)[keyof typeof SOCKET_CLOSE];

/**
 * Every way the router refuses an upgrade: an HTTP application/problem+json answer instead of 101 Switching
 * Protocols, published for each endpoint (docs()) and, in tests, checked on every refusal (upgradeContract).
 */
export const UPGRADE_REFUSAL = {
  invalidHandshake: {
    status: 400,
    code: 'invalid_handshake',
    description:
      'Not a WebSocket handshake (RFC 6455: GET, Upgrade: websocket, a Sec-WebSocket-Key, Sec-WebSocket-Version 13)',
  },
  tokenMissing: {
    status: 401,
    code: 'token_missing',
    description: 'No access token (Authorization: Bearer, or ?token=)',
  },
  tokenInvalid: { status: 401, code: 'token_invalid', description: 'The access token is not one of ours' },
  tokenExpired: {
    status: 401,
    code: 'token_expired',
    description: 'The access token expired: refresh it (POST /auth/refresh) and reconnect',
  },
  tokenRevoked: {
    status: 401,
    code: 'token_revoked',
    description: 'The access token was revoked (log-out, session ended, account disabled)',
  },
  organizationSuspended: {
    status: 403,
    code: 'organization_suspended',
    description: 'The organisation is suspended',
    gated: true,
  },
  moduleNotEntitled: {
    status: 403,
    code: 'module_not_entitled',
    description: "The subscription does not include the endpoint's module",
    gated: true,
  },
  tooManySockets: {
    status: 429,
    code: 'too_many_sockets',
    description:
      'The user, or the client address, already holds as many sockets as allowed (x-socket-limits), on every endpoint and server together: close one first',
  },
  socketCapacityReached: {
    status: 503,
    code: 'socket_capacity_reached',
    description:
      'This server holds as many sockets as it takes; retry after Retry-After seconds (the next attempt may reach another server)',
  },
  dependencyUnavailable: {
    status: 503,
    code: 'dependency_unavailable',
    description: 'A check could not be made (PostgreSQL or Redis unavailable); retry after Retry-After seconds',
  },
} as const satisfies Record<string, RefusalDoc & { gated?: true }>;

/** What a server at its socket capacity tells clients to wait before retrying, in seconds. */
const CAPACITY_RETRY_AFTER_SECONDS = 5;

/** Whether a close or refusal of the router applies to an endpoint: the entitlement ones only where a module gates it, the permission one where a permission does. */
const appliesTo = (route: SocketRoute) => (c: { gated?: true; permissioned?: true }) =>
  (!c.gated || !!route.module) && (!c.permissioned || !!route.permission);

const routerCloses = (route: SocketRoute): CloseDoc[] =>
  Object.values(SOCKET_CLOSE as Record<string, CloseDoc & { gated?: true; permissioned?: true }>)
    .filter(appliesTo(route))
    .map(({ code, reason, description }) => ({ code, reason, description }));

const routerRefusals = (route: SocketRoute): RefusalDoc[] =>
  Object.values(UPGRADE_REFUSAL as Record<string, RefusalDoc & { gated?: true }>)
    .filter(appliesTo(route))
    .map(({ status, code, description }) => ({ status, code, description }));

/** Longest delay setTimeout accepts; a token living longer is still checked at each message. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface OpenSocket {
  ws: WebSocket;
  auth: AuthInfo;
  module?: ModuleKey;
  permission?: string;
  /** Closes the socket when its access token expires (none when `exp` is beyond a timer's reach). */
  expiry?: NodeJS.Timeout;
}

/**
 * WebSocket endpoints on the HTTP server: an upgrade is routed by path, authenticated like HTTP (Bearer
 * header or ?token=), checked for the route's module, and refused with a problem+json HTTP answer otherwise
 * (UPGRADE_REFUSAL).
 *
 * Sockets are capped per user and per client address across every endpoint and dyno (WS_MAX_SOCKETS_PER_USER,
 * WS_MAX_SOCKETS_PER_ADDRESS: leases in Redis, lib/socketLeases.ts), and per process (WS_MAX_SOCKETS_PER_PROCESS,
 * below WEB_MAX_CONNECTIONS): one member, or one address, can no longer fill the process's connections, and
 * HTTP requests always find some left, since beyond WEB_MAX_CONNECTIONS Node drops every new connection.
 *
 * An open socket keeps being held to the same rules, for every endpoint without code of its own:
 *  - when its access token expires it is closed (a timer at `exp`: 4401 token_expired);
 *  - within a second of a revocation (pub/sub of lib/revocation.ts), an entitlement change (suspension,
 *    loss of the module, end of a trial) or an RBAC change (pub/sub of domain/identity/permissions.ts) the
 *    sockets it concerns are closed (SOCKET_CLOSE);
 *  - every message is checked before the endpoint sees it (expiry; revocation list: one Redis round trip;
 *    entitlements and permissions: their in-process memos), in order, so a missed event still closes the
 *    socket on its next message.
 */
export class SocketRouter {
  private readonly routes = new Map<string, { route: SocketRoute; wss: WebSocketServer }>();
  private readonly open = new Set<OpenSocket>();
  /** Organisations whose entitlements end by themselves (a trial), and the timer that re-checks them then. */
  private readonly expiries = new Map<string, NodeJS.Timeout>();
  private readonly unsubscribe: (() => void)[];
  private readonly leases: SocketLeases;
  /** Sockets of this process: open, or between the admission and the end of their handshake. */
  private held = 0;

  constructor(
    private readonly services: Services,
    private readonly auth: Authenticator,
    /** The client's address as HTTP routes see it (req.ip: TRUST_PROXY applies). */
    private readonly clientAddress: (req: IncomingMessage) => string,
  ) {
    const { config } = services;
    this.leases = new SocketLeases(
      services.redis,
      services.key,
      {
        perUser: config.WS_MAX_SOCKETS_PER_USER,
        perAddress: config.WS_MAX_SOCKETS_PER_ADDRESS,
        leaseMs: config.WS_SOCKET_LEASE_SECONDS * 1000,
      },
      services.logger,
    );
    this.unsubscribe = [
      services.revocations.onRevoked((r) => this.revoked(r)),
      services.entitlements.onInvalidated((tenantId) =>
        this.recheck((s) => !!s.module && (tenantId === '*' || s.auth.tenantId === tenantId)),
      ),
      services.permissions.onInvalidated((scope) => this.permissionsChanged(scope)),
    ];
    // Events published while the subscription was down are lost: re-check every socket once it is back.
    const onReady = () => this.recheck(() => true);
    services.subscriber.on('ready', onReady);
    this.unsubscribe.push(() => services.subscriber.off('ready', onReady));
  }

  add(path: string, route: SocketRoute): void {
    if (route.module && !moduleKeys.includes(route.module)) throw new Error(`unknown module ${route.module}`);
    // In tests every frame the server sends is checked against the route's doc (api/http/contract.ts).
    const { handle, doc } = route;
    if (this.services.config.NODE_ENV === 'test')
      route = { ...route, handle: (ws, auth, req) => (socketContract(ws, path, doc), handle(ws, auth, req)) };
    const wss = new WebSocketServer({ noServer: true, maxPayload: route.maxPayload ?? DEFAULT_MAX_FRAME_BYTES });
    // A request that is not a WebSocket handshake gets a problem too (ws answers plain text otherwise).
    wss.on('wsClientError', (err: Error, socket: Duplex) =>
      this.refuse(socket, path, UPGRADE_REFUSAL.invalidHandshake, err.message),
    );
    this.routes.set(path, { route, wss });
  }

  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => void this.upgrade(req, socket, head));
  }

  /** The endpoints and what they exchange, for /asyncapi.json. */
  docs(): [string, PublishedSocket][] {
    const { config } = this.services;
    const limits = { perUser: config.WS_MAX_SOCKETS_PER_USER, perAddress: config.WS_MAX_SOCKETS_PER_ADDRESS };
    return [...this.routes].map(([path, { route }]) => [
      path,
      {
        ...route.doc,
        maxFrameBytes: route.maxPayload ?? DEFAULT_MAX_FRAME_BYTES,
        closes: [...routerCloses(route), ...(route.doc.closes ?? [])],
        refusals: routerRefusals(route),
        limits,
      },
    ]);
  }

  /** Closes every open socket (server shutdown). */
  close(): void {
    for (const stop of this.unsubscribe) stop();
    this.leases.close();
    for (const timer of this.expiries.values()) clearTimeout(timer);
    for (const s of this.open) clearTimeout(s.expiry);
    for (const { wss } of this.routes.values()) {
      for (const client of wss.clients) client.close(SOCKET_CLOSE.shuttingDown.code, SOCKET_CLOSE.shuttingDown.reason);
      wss.close();
    }
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => socket.destroy());
    const path = pathOf(req.url);
    const entry = path === null ? undefined : this.routes.get(path);
    if (!path || !entry)
      return this.refuse(socket, null, { status: 404, code: 'route_not_found' }, 'No WebSocket endpoint at this path');
    try {
      const auth = await this.auth.verify(req, { ws: true });
      if (entry.route.module) {
        const entitlements = await this.services.entitlements.get(auth.tenantId);
        // The same problems as the HTTP guard (api/http/guards.ts moduleGuard), in the same order.
        if (entitlements.suspended)
          return this.refuse(socket, path, UPGRADE_REFUSAL.organizationSuspended, 'This organisation is suspended');
        if (!entitlements.modules.includes(entry.route.module)) {
          return this.refuse(
            socket,
            path,
            UPGRADE_REFUSAL.moduleNotEntitled,
            `The subscription of this organisation does not include the ${entry.route.module} module`,
          );
        }
        this.expireWith(auth.tenantId, entitlements.validUntil);
      }
      if (!(await this.admit(socket, path, auth, this.clientAddress(req)))) return;
      entry.wss.handleUpgrade(req, socket, head, (ws) => {
        this.track({ ws, auth, module: entry.route.module, permission: entry.route.permission });
        entry.route.handle(ws, auth, req);
      });
    } catch (err) {
      if (err instanceof AppError) return this.refuse(socket, path, err, err.message);
      if (isDependencyDown(err)) this.services.logger.warn({ err }, 'websocket upgrade: dependency unavailable');
      else this.services.logger.error({ err }, 'websocket upgrade failed');
      this.refuse(socket, path, UPGRADE_REFUSAL.dependencyUnavailable, 'The upgrade could not be completed', {
        'Retry-After': '1',
      });
    }
  }

  /**
   * Takes the socket's places (this process's, its user's and its address's), refusing it when one is full.
   * They are given back when the connection ends, upgraded or not (a bad handshake is answered by ws and never
   * upgraded). Returns false when refused.
   */
  private async admit(socket: Duplex, path: string, auth: AuthInfo, address: string): Promise<boolean> {
    if (this.held >= this.services.config.WS_MAX_SOCKETS_PER_PROCESS) {
      this.refuse(
        socket,
        path,
        UPGRADE_REFUSAL.socketCapacityReached,
        'This server holds as many sockets as it takes',
        { 'Retry-After': String(CAPACITY_RETRY_AFTER_SECONDS) },
      );
      return false;
    }
    this.held++;
    let lease;
    try {
      lease = await this.leases.acquire(auth.userId, ipKeyGenerator(address));
    } catch (err) {
      this.held--;
      throw err;
    }
    if ('refused' in lease) {
      this.held--;
      const { config } = this.services;
      const detail =
        lease.refused === 'user'
          ? `You already hold ${config.WS_MAX_SOCKETS_PER_USER} open sockets: close one first`
          : `This address already holds ${config.WS_MAX_SOCKETS_PER_ADDRESS} open sockets: close one first`;
      this.refuse(socket, path, UPGRADE_REFUSAL.tooManySockets, detail);
      return false;
    }
    const taken = lease;
    const release = () => {
      this.held--;
      this.leases.release(taken);
    };
    // The client may have gone while the lease was taken.
    if (socket.destroyed) {
      release();
      return false;
    }
    socket.once('close', release);
    return true;
  }

  /** Answers an upgrade with a problem instead of 101; in tests, the refusal must be one the endpoint publishes. */
  private refuse(
    socket: Duplex,
    path: string | null,
    refusal: { status: number; code: string },
    detail: string,
    headers: Record<string, string> = {},
  ): void {
    if (path && this.services.config.NODE_ENV === 'test')
      upgradeContract(path, this.docs().find(([p]) => p === path)?.[1].refusals ?? [], refusal);
    socket.end(rawProblemAnswer(refusal.status, refusal.code, detail, headers));
  }

  /**
   * Registers an open socket and puts the admission check in front of its messages: 'message' events reach
   * the endpoint's listeners only once the check passed, in the order they arrived.
   */
  private track(s: OpenSocket): void {
    this.open.add(s);
    // Closed when its token expires, with or without a message (the upgrade refused an expired one).
    const expiresInMs = s.auth.exp * 1000 - Date.now();
    if (expiresInMs <= MAX_TIMER_MS) {
      s.expiry = setTimeout(
        () => {
          if (s.ws.readyState === s.ws.OPEN)
            s.ws.close(SOCKET_CLOSE.tokenExpired.code, SOCKET_CLOSE.tokenExpired.reason);
        },
        Math.max(0, expiresInMs),
      );
      s.expiry.unref();
    }
    s.ws.once('close', () => {
      clearTimeout(s.expiry);
      this.open.delete(s);
    });
    const emit = s.ws.emit.bind(s.ws);
    let previous: Promise<unknown> = Promise.resolve();
    s.ws.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event !== 'message') return emit(event, ...args);
      previous = previous.then(async () => {
        if (await this.admits(s)) emit(event, ...args);
      });
      return true;
    }) as WebSocket['emit'];
  }

  /** Checks the socket (closing it when refused); true when it may go on. */
  private async admits(s: OpenSocket): Promise<boolean> {
    if (s.ws.readyState !== s.ws.OPEN) return false;
    const refusal = await this.refusalOf(s).catch((err: Error): SocketClose => {
      this.services.logger.warn({ err: err.message }, 'socket check failed');
      return SOCKET_CLOSE.dependencyUnavailable;
    });
    if (refusal) s.ws.close(refusal.code, refusal.reason);
    return !refusal;
  }

  private async refusalOf(s: OpenSocket): Promise<SocketClose | null> {
    // The rule of api/http/auth.ts (jsonwebtoken): a token is expired from the second `exp` on.
    if (s.auth.exp * 1000 <= Date.now()) return SOCKET_CLOSE.tokenExpired;
    if (await this.services.revocations.isRevoked(s.auth, { fresh: true })) return SOCKET_CLOSE.tokenRevoked;
    if (s.module) {
      const entitlements = await this.services.entitlements.get(s.auth.tenantId);
      if (entitlements.suspended) return SOCKET_CLOSE.organizationSuspended;
      if (!entitlements.modules.includes(s.module)) return SOCKET_CLOSE.moduleNotEntitled;
      this.expireWith(s.auth.tenantId, entitlements.validUntil);
    }
    if (s.permission && !(await this.services.permissions.of(s.auth.tenantId, s.auth.userId)).has(s.permission))
      return SOCKET_CLOSE.permissionDenied;
    return null;
  }

  /** Re-checks the sockets of a member ("tenant:user") or an organisation ("tenant") whose permissions changed, on any dyno. */
  private permissionsChanged(scope: string): void {
    const [tenantId, userId] = scope.split(':');
    this.recheck(
      (s) => !!s.permission && (!tenantId || s.auth.tenantId === tenantId) && (!userId || s.auth.userId === userId),
    );
  }

  private revoked(r: Revocation): void {
    for (const s of this.open)
      if (concerns(r, s.auth)) s.ws.close(SOCKET_CLOSE.tokenRevoked.code, SOCKET_CLOSE.tokenRevoked.reason);
  }

  private recheck(which: (s: OpenSocket) => boolean): void {
    for (const s of this.open) if (which(s)) void this.admits(s);
  }

  /** Entitlements that end by themselves (a trial's end) are re-checked then, without waiting for a message. */
  private expireWith(tenantId: string, validUntil: string | null): void {
    if (!validUntil || this.expiries.has(tenantId)) return;
    const inMs = Date.parse(validUntil) - Date.now() + 50;
    if (inMs > 2 ** 31 - 1) return;
    const timer = setTimeout(
      () => {
        this.expiries.delete(tenantId);
        this.recheck((s) => !!s.module && s.auth.tenantId === tenantId);
      },
      Math.max(0, inMs),
    );
    timer.unref();
    this.expiries.set(tenantId, timer);
  }
}

/** The path of a request target, or null when it is none: `new URL` throws on some that Node's parser takes (`http://[`). */
function pathOf(target = '/'): string | null {
  try {
    return new URL(target, 'http://x').pathname;
  } catch {
    return null;
  }
}
