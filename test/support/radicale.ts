import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './stack';
import { eventually } from './wait';

/** A real Radicale CalDAV server (Debian package `radicale`) on a spare port, with its own storage folder. */
export interface Radicale {
  url: string;
  port: number;
  /** Plain HTTP to it as a user (MKCALENDAR, PUT, DELETE ...). */
  request(method: string, path: string, user: { name: string; password: string }, body?: string): Promise<Response>;
  stop(): Promise<void>;
}

const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** Starts Radicale with htpasswd (plain) users; `stop` ends the process (waiting for its exit) and removes its folder. */
export async function startRadicale(users: Record<string, string>, port?: number): Promise<Radicale> {
  const dir = await mkdtemp(join(tmpdir(), 'radicale-'));
  const chosen = port ?? (await freePort());
  await writeFile(
    join(dir, 'users'),
    Object.entries(users)
      .map(([u, p]) => `${u}:${p}\n`)
      .join(''),
  );
  const child: ChildProcess = spawn(
    'radicale',
    [
      `--storage-filesystem-folder=${join(dir, 'collections')}`,
      `--server-hosts=127.0.0.1:${chosen}`,
      '--auth-type=htpasswd',
      `--auth-htpasswd-filename=${join(dir, 'users')}`,
      '--auth-htpasswd-encryption=plain',
      '--auth-delay=0',
      '--logging-level=warning',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await eventually(() => listening(chosen), { timeoutMs: 15_000, what: `radicale on ${chosen} (${stderr})` });
  const url = `http://127.0.0.1:${chosen}`;
  return {
    url,
    port: chosen,
    request: (method, path, user, body) =>
      fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Basic ${Buffer.from(`${user.name}:${user.password}`).toString('base64')}`,
          ...(body ? { 'content-type': 'text/calendar; charset=utf-8' } : {}),
        },
        body,
      }),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      child.stderr?.destroy();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
