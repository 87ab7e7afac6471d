import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { createTestDatabase, databaseUrl, dropTestDatabase, namespace } from '../support/db';
import { freePort, TEST_JWT_SECRET } from '../support/stack';
import { eventually } from '../support/wait';
import { scaled } from '../support/timeScale';

/** The processes under `pid` (children, theirs, ...), from /proc. */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces, so read after its closing parenthesis.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  for (let frontier = [pid]; frontier.length;)
    frontier = [...parents]
      .filter(([, parent]) => frontier.includes(parent))
      .map(([child]) => (found.push(child), child));
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * `npm start` as `docker stop` stops `CMD ["npm", "start"]`: SIGTERM to the npm process alone. The server
 * must get it and shut down cleanly, leaving no process behind. It reuses dist/ when it is up to date (a fresh
 * checkout builds it first, which takes a minute or more).
 */
describe('npm start', () => {
  jest.setTimeout(scaled(420_000));
  const redisNamespace = `t_${namespace}_start`;
  let database: string;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${redisNamespace}:*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await dropTestDatabase(database);
  });

  it('stops the server on a SIGTERM sent to npm alone', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['start'], {
      cwd: join(__dirname, '../..'),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        PUBLIC_URL: url,
        DATABASE_URL: databaseUrl(database),
        REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
        REDIS_NAMESPACE: redisNamespace,
        JWT_SECRET: TEST_JWT_SECRET,
        STORAGE_DIR: `/tmp/platform-test-storage/${database}`,
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    let processes: number[] = [];
    try {
      await eventually(async () => (await fetch(`${url}/health`)).ok, {
        timeoutMs: 360_000,
        intervalMs: 500,
        what: `npm start to serve (${output.slice(-500)})`,
      });
      processes = descendantsOf(npm.pid!);
      expect(processes.length).toBeGreaterThan(0);

      npm.kill('SIGTERM');
      const [code, signal] = await exited;
      await eventually(() => processes.every((pid) => !alive(pid)), {
        timeoutMs: 10_000,
        what: `no process of npm start left (${processes.filter(alive).join(', ')})`,
      });
      expect(output).toContain('"msg":"shutting down"');
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      // Whatever a failure left running: npm and the processes it started.
      for (const pid of [npm.pid!, ...processes, ...descendantsOf(npm.pid!)])
        if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });
});
