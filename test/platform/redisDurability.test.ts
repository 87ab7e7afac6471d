import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pino from 'pino';
import type { Logger } from '../../lib/logger';
import { checkRedisDurability } from '../../lib/redis';
import { freePort } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * What the queues need of Redis in production (AOF with fsync every second, no eviction) is checked at start:
 * a warning in production, a note elsewhere. Each case runs its own redis-server (the shared one is never
 * reconfigured).
 */
describe('Redis durability check', () => {
  const servers: { process: ChildProcess; dir: string; client: Redis }[] = [];
  afterAll(async () => {
    for (const s of servers) {
      s.client.disconnect();
      s.process.kill();
      rmSync(s.dir, { recursive: true, force: true });
    }
  });

  async function redisWith(...args: string[]): Promise<Redis> {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'redis-durability-'));
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...args],
      { stdio: 'ignore' },
    );
    const client = new Redis(port, '127.0.0.1', { retryStrategy: () => 50 });
    client.on('error', () => undefined);
    servers.push({ process: child, dir, client });
    await eventually(() => client.status === 'ready', { what: 'redis-server to start' });
    return client;
  }

  /** A logger whose lines are kept. */
  function capture(): { logger: Logger; lines: { level: number; msg: string; findings?: string[] }[] } {
    const lines: { level: number; msg: string; findings?: string[] }[] = [];
    return { logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }), lines };
  }

  it('warns in production about a Redis without AOF and with eviction, notes it in development', async () => {
    const redis = await redisWith('--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru');
    const production = capture();
    const findings = await checkRedisDurability(redis, production.logger, true);
    expect(findings).toEqual([
      expect.stringMatching(/^appendonly is no/),
      expect.stringMatching(/^maxmemory-policy is allkeys-lru/),
    ]);
    expect(production.lines).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/not configured for durable queues/), findings }),
    ]);
    const development = capture();
    await checkRedisDurability(redis, development.logger, false);
    expect(development.lines).toEqual([expect.objectContaining({ level: 30, findings })]);
  });

  it('says nothing when Redis runs with appendonly yes, appendfsync everysec and noeviction', async () => {
    const redis = await redisWith(
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
    );
    const production = capture();
    expect(await checkRedisDurability(redis, production.logger, true)).toEqual([]);
    expect(production.lines).toEqual([]);
  });

  it('flags fsync left to the operating system', async () => {
    const redis = await redisWith('--appendonly', 'yes', '--appendfsync', 'no');
    expect(await checkRedisDurability(redis, capture().logger, true)).toEqual([
      expect.stringMatching(/^appendfsync is no/),
    ]);
  });

  it('reads INFO where CONFIG is refused (managed services)', async () => {
    const redis = await redisWith(
      '--appendonly',
      'no',
      '--maxmemory-policy',
      'volatile-lru',
      '--rename-command',
      'CONFIG',
      '',
    );
    expect(await checkRedisDurability(redis, capture().logger, true)).toEqual([
      expect.stringMatching(/^appendonly is no/),
      expect.stringMatching(/^maxmemory-policy is volatile-lru/),
    ]);
    const durable = await redisWith('--appendonly', 'yes', '--rename-command', 'CONFIG', '');
    expect(await checkRedisDurability(durable, capture().logger, true)).toEqual([]);
  });
});
