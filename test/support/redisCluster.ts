import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { freePort } from './stack';
import { eventually } from './wait';

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? '/usr/bin/redis-server';

/**
 * A real Redis Cluster of the test's own: `masters` redis-server processes (plus `replicasPerMaster` replicas
 * each) of the machine's binary on free ports, joined with CLUSTER MEET and given the 16384 slots with
 * CLUSTER ADDSLOTSRANGE (what `redis-cli --cluster create` does, without its prompts). Stopped by `stop()`.
 */
export interface RedisCluster {
  /** host:port of every node, as REDIS_CLUSTER_NODES takes them. */
  nodes: string[];
  masters: ClusterNode[];
  replicas: ClusterNode[];
  /** REDIS_CLUSTER_NODES for a stack. */
  env: Record<string, string>;
  /** SIGKILLs a node (a crashed master). */
  kill(node: ClusterNode): void;
  /** Starts a killed node again on its port, with its node file and AOF: it rejoins with its slots and data. */
  restart(node: ClusterNode): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterNode {
  port: number;
  address: string;
  process: ChildProcess;
}

/** Whether a redis-server answers PING on `port` (one attempt, no retries). */
async function answers(port: number): Promise<boolean> {
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } finally {
    probe.disconnect();
  }
}

export async function startRedisCluster(options: { masters?: number; replicasPerMaster?: number } = {}) {
  const masters = options.masters ?? 3;
  const replicasPerMaster = options.replicasPerMaster ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const started: ClusterNode[] = [];
  const spawnNode = (port: number) =>
    spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--cluster-enabled',
        'yes',
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        '1000',
        // A replica may take over however long ago it last heard its master (a test kills masters soon after start).
        '--cluster-replica-validity-factor',
        '0',
        '--dir',
        dir,
        '--dbfilename',
        `dump-${port}.rdb`,
        '--appendonly',
        'yes',
        '--appendfilename',
        `aof-${port}.aof`,
        '--appenddirname',
        `aof-${port}`,
        '--maxmemory-policy',
        'noeviction',
        '--save',
        '',
      ],
      { stdio: 'ignore' },
    );
  const start = async (): Promise<ClusterNode> => {
    const port = await freePort();
    const node = { port, address: `127.0.0.1:${port}`, process: spawnNode(port) };
    started.push(node);
    return node;
  };
  const stop = async () => {
    await Promise.all(
      started.map(
        (n) =>
          new Promise<void>((resolve) => {
            if (n.process.exitCode !== null || n.process.signalCode !== null) return resolve();
            n.process.once('exit', () => resolve());
            n.process.kill('SIGKILL');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const masterNodes = await Promise.all(Array.from({ length: masters }, start));
    const replicaNodes = await Promise.all(Array.from({ length: masters * replicasPerMaster }, start));
    const all = [...masterNodes, ...replicaNodes];
    const clients = all.map((n) => new Redis(n.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 }));
    clients.forEach((c) => c.on('error', () => undefined));
    try {
      await Promise.all(all.map((n) => eventually(() => answers(n.port), { what: 'redis-server up' })));
      await Promise.all(clients.map((c) => c.connect()));
      await Promise.all(clients.slice(1).map((c) => c.call('CLUSTER', 'MEET', '127.0.0.1', String(all[0].port))));
      const per = Math.ceil(16384 / masters);
      await Promise.all(
        masterNodes.map((_, i) =>
          clients[i].call('CLUSTER', 'ADDSLOTSRANGE', String(i * per), String(Math.min(16383, (i + 1) * per - 1))),
        ),
      );
      const ids = await Promise.all(clients.slice(0, masters).map((c) => c.call('CLUSTER', 'MYID') as Promise<string>));
      // Every node knows every other before a replica may follow its master.
      await eventually(
        async () => {
          const known = await Promise.all(clients.map((c) => c.call('CLUSTER', 'NODES') as Promise<string>));
          return known.every((k) => k.trim().split('\n').length === all.length);
        },
        { what: 'cluster nodes meet', timeoutMs: 20_000 },
      );
      await Promise.all(
        replicaNodes.map((_, j) => clients[masters + j].call('CLUSTER', 'REPLICATE', ids[j % masters])),
      );
      await eventually(
        async () => {
          const infos = await Promise.all(clients.map((c) => c.call('CLUSTER', 'INFO') as Promise<string>));
          return infos.every((i) => i.includes('cluster_state:ok'));
        },
        { what: 'cluster_state:ok on every node', timeoutMs: 20_000 },
      );
      // A replica that has not synced yet cannot be promoted: wait until every one follows its master.
      await eventually(
        async () =>
          (await Promise.all(clients.slice(masters).map((c) => c.info('replication')))).every((i) =>
            i.includes('master_link_status:up'),
          ),
        { what: 'every replica in sync', timeoutMs: 20_000 },
      );
    } finally {
      clients.forEach((c) => c.disconnect());
    }
    const nodes = all.map((n) => n.address);
    return {
      nodes,
      masters: masterNodes,
      replicas: replicaNodes,
      env: { REDIS_CLUSTER_NODES: nodes.join(',') },
      kill: (node: ClusterNode) => node.process.kill('SIGKILL'),
      restart: async (node: ClusterNode) => {
        node.process = spawnNode(node.port);
        const client = new Redis(node.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 1 });
        client.on('error', () => undefined);
        try {
          await eventually(
            async () => {
              await client.connect().catch(() => undefined);
              return String(await client.call('CLUSTER', 'INFO')).includes('cluster_state:ok');
            },
            { what: 'restarted node back in the cluster', timeoutMs: 20_000 },
          );
        } finally {
          client.disconnect();
        }
      },
      stop,
    } satisfies RedisCluster;
  } catch (err) {
    await stop();
    throw err;
  }
}
