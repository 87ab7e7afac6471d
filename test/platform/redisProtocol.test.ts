import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRedis } from '../../lib/redis';
import { eventually } from '../support/wait';

/**
 * A reply that arrives when no command waits for it (the command queue was flushed by a socket timeout or a
 * reconnect while replies were in flight) is reported by ioredis as a connection error. ioredis 6.0.0 builds
 * that error with `reply.toString()`, so a nil reply threw a TypeError on the next tick instead: an uncaught
 * exception that stops the process (seen once in the Redis outage fault test). lib/redis.ts mends it.
 */
describe('Redis protocol errors', () => {
  let server: Server;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    // Just enough of Redis for a client to become ready: INFO answers "loading:0", anything else +OK.
    server = createServer((socket) => {
      sockets.push(socket);
      socket.on('data', (data) => {
        for (const command of data.toString().split('*').slice(1)) {
          socket.write(/\r\ninfo\r\n/i.test(`\r\n${command}`) ? '$9\r\nloading:0\r\n' : '+OK\r\n');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reports a nil reply nobody waits for as a connection error, without throwing', async () => {
    const { port } = server.address() as AddressInfo;
    const redis = createRedis({ REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_TIMEOUT_MS: 500 });
    const errors: Error[] = [];
    redis.on('error', (err: Error) => errors.push(err));
    const uncaught: Error[] = [];
    const onUncaught = (err: Error) => uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    try {
      await eventually(() => redis.status === 'ready', { what: 'the client to be ready' });
      sockets.at(-1)!.write('$-1\r\n');
      await eventually(() => errors.length > 0, { what: 'the connection error' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(errors[0].message).toMatch(/Command queue state error.*Last reply: \(nil\)/);
      expect(uncaught).toEqual([]);
      // The connection still serves commands.
      expect(await redis.set('k', 'v')).toBe('OK');
    } finally {
      process.off('uncaughtException', onUncaught);
      redis.disconnect();
    }
  });
});
