import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';

export type LinkState = 'up' | 'down' | 'stalled';

/**
 * A TCP proxy the test controls, in front of the shared PostgreSQL or Redis (which are never stopped):
 *  - up       bytes flow both ways;
 *  - down     every connection is cut and new ones are refused (ECONNREFUSED), like a stopped server;
 *  - stalled  connections stay open but nothing flows, new ones are accepted and hang, like a partition.
 * A stalled link that comes back up delivers what it held back, as a healed network would.
 */
export interface TcpProxy {
  readonly port: number;
  readonly state: LinkState;
  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string;
  up(): Promise<void>;
  down(): Promise<void>;
  stall(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  server: Socket | null;
}

export async function startProxy(target: string): Promise<TcpProxy> {
  const { hostname, port: targetPort } = new URL(target);
  const pairs = new Set<Pair>();
  let state: LinkState = 'up';
  let server: Server;

  const flow = (pair: Pair) => {
    if (!pair.server) {
      const upstream = connect(Number(targetPort), hostname);
      pair.server = upstream;
      upstream.on('error', () => pair.client.destroy());
      pair.client.on('error', () => upstream.destroy());
      upstream.on('close', () => pair.client.destroy());
      pair.client.on('close', () => {
        upstream.destroy();
        pairs.delete(pair);
      });
    }
    pair.client.pipe(pair.server);
    pair.server.pipe(pair.client);
  };

  const hold = (pair: Pair) => {
    if (pair.server) {
      pair.client.unpipe(pair.server);
      pair.server.unpipe(pair.client);
      pair.server.pause();
    }
    pair.client.pause();
  };

  const accept = (client: Socket) => {
    const pair: Pair = { client, server: null };
    pairs.add(pair);
    client.on('error', () => client.destroy());
    client.on('close', () => pairs.delete(pair));
    if (state === 'up') flow(pair);
    else hold(pair);
  };

  const listen = async (port: number) => {
    server = createServer(accept);
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    return (server.address() as { port: number }).port;
  };
  const port = await listen(0);

  const proxy: TcpProxy = {
    port,
    get state() {
      return state;
    },
    via(url: string) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    async up() {
      if (state === 'down') await listen(port);
      state = 'up';
      for (const pair of pairs) flow(pair);
    },
    async down() {
      const wasListening = state !== 'down';
      state = 'down';
      for (const pair of pairs) {
        pair.client.destroy();
        pair.server?.destroy();
      }
      pairs.clear();
      if (wasListening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    stall() {
      if (state === 'down') throw new Error('a link that is down cannot stall; bring it up first');
      state = 'stalled';
      for (const pair of pairs) hold(pair);
    },
    async close() {
      await proxy.down();
    },
  };
  return proxy;
}
