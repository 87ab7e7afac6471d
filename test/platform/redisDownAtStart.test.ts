import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { freePort, startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/** This test's own Redis, without persistence. */
const startRedis = (port: number) =>
  spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });

/**
 * A dyno started while its Redis is down says so once, not once per connection, queue and retry, and once
 * more when Redis answers. The Redis here is this test's own redis-server on a free port (started after the
 * dyno), never the shared one.
 */
describe('Redis down when a dyno starts', () => {
  let stack: TestStack;
  let redis: ChildProcess | undefined;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(async () => {
    if (redis?.exitCode === null) {
      redis.kill('SIGTERM');
      await once(redis, 'exit');
    }
    await stack.close();
  });

  it('logs one line when it finds Redis unavailable and one when it is available again', async () => {
    const port = await freePort();
    const logs: string[] = [];
    const dyno = await startStack({
      sharing: stack,
      workers: true,
      env: { REDIS_URL: `redis://127.0.0.1:${port}`, LOG_LEVEL: 'info' },
      logs,
    });
    try {
      let reconnects = 0;
      dyno.services.redis.on('reconnecting', () => reconnects++);
      // Several retry rounds of every connection (commands, pub/sub, producer, each queue's worker): the old
      // logging wrote a line per connection and queue by then.
      const failedWorkers = new Set<unknown>();
      for (const worker of dyno.workers!.workers) worker.on('error', () => failedWorkers.add(worker));
      await eventually(() => reconnects >= 5 && failedWorkers.size === dyno.workers!.workers.length, {
        timeoutMs: 30_000,
        what: 'five reconnect attempts, an error of every worker',
      });
      const messages = () => logs.map((line) => (JSON.parse(line) as { msg: string }).msg);
      const count = (pattern: RegExp) => messages().filter((m) => pattern.test(m)).length;
      expect(count(/^redis unavailable at redis:\/\/127\.0\.0\.1:\d+: retrying/)).toBe(1);
      expect(count(/worker error|redis connection error|not reachable/)).toBe(0);

      redis = startRedis(port);
      await eventually(() => count(/^redis available again at /) === 1, {
        timeoutMs: 20_000,
        what: 'the line telling Redis is back',
      });
      await eventually(() => dyno.services.redis.status === 'ready', { what: 'the commands connection ready' });
      expect(count(/^redis unavailable at /)).toBe(1);
      expect(count(/worker error|redis connection error/)).toBe(0);
    } finally {
      // Workers close once they reach Redis: start it if an assertion failed before it was.
      redis ??= startRedis(port);
      await dyno.close();
    }
  }, 90_000);
});
