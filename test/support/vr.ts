import { WebSocket } from 'ws';
import { createAccount, addMember, type Account } from './factories';
import type { TestStack } from './stack';
import { eventually } from './wait';

export { startFakeHub, type FakeHub } from './hub';

/** An organisation on the pro tier (which includes vr), its owner, and members assigned to rooms. */
export interface VrOrg {
  admin: Account;
  members: Account[];
}

export async function vrOrg(stack: TestStack, members = 2): Promise<VrOrg> {
  const admin = await createAccount(stack, { tier: 'pro' });
  const list: Account[] = [];
  for (let i = 0; i < members; i++) list.push(await addMember(stack, admin, 'member'));
  return { admin, members: list };
}

export interface RoomInput {
  name?: string;
  simulation?: string;
  simulationSteps?: number;
  mode?: 'solo' | 'multiplayer' | 'instructor_led';
  capacity?: number;
  participantIds?: string[];
}

/** Creates a room through the API (and opens it unless `open: false`); returns its body. */
export async function createRoom(
  stack: TestStack,
  admin: Account,
  input: RoomInput = {},
  options: { open?: boolean } = {},
): Promise<{ id: string } & Record<string, unknown>> {
  const res = await stack.http
    .post('/rooms')
    .set(admin.auth)
    .send({
      name: 'Fire drill',
      simulation: 'fire-safety-101',
      simulationSteps: 4,
      mode: 'multiplayer',
      capacity: 4,
      ...input,
    });
  if (res.status !== 201) throw new Error(`room not created: ${res.status} ${JSON.stringify(res.body)}`);
  if (options.open !== false) {
    const opened = await stack.http.post(`/rooms/${res.body.id}/open`).set(admin.auth);
    if (opened.status !== 200) throw new Error(`room not opened: ${opened.status}`);
    return opened.body;
  }
  return res.body;
}

/** A WebSocket client collecting every JSON frame it receives. */
export interface TestSocket {
  ws: WebSocket;
  received: Record<string, unknown>[];
  closed: Promise<{ code: number; reason: string }>;
  send(value: unknown): void;
  /** Waits for the n-th frame (0-based) matching `type`. */
  next(type: string, n?: number): Promise<Record<string, unknown>>;
  close(): void;
}

export async function openSocket(stack: TestStack, path: string, token: string): Promise<TestSocket> {
  const ws = new WebSocket(`${stack.url.replace('http', 'ws')}${path}?token=${encodeURIComponent(token)}`);
  const received: Record<string, unknown>[] = [];
  ws.on('message', (data) => received.push(JSON.parse(String(data)) as Record<string, unknown>));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return {
    ws,
    received,
    closed,
    send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
    next: (type, n = 0) =>
      eventually(() => received.filter((m) => m.type === type)[n], {
        timeoutMs: 8000,
        intervalMs: 10,
        what: `a ${type} message`,
      }),
    close: () => ws.close(),
  };
}

/** What an upgrade attempt got: an open socket, an HTTP refusal (status, headers, problem body), or a reset connection. */
export type UpgradeOutcome =
  | { open: WebSocket }
  | { status: number; headers: Record<string, string | string[] | undefined>; body: Record<string, unknown> }
  | { reset: string };

/** Tries an upgrade (to `url`, a stack's or a dyno's base address) and says how it ended; a refused attempt leaves nothing open. */
export async function tryOpenSocket(
  url: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<UpgradeOutcome> {
  const ws = new WebSocket(`${url.replace('http', 'ws')}${path}?token=${encodeURIComponent(token)}`, { headers });
  return new Promise((resolve) => {
    ws.once('open', () => resolve({ open: ws }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        ws.terminate();
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: JSON.parse(text || '{}') as Record<string, unknown>,
        });
      });
    });
    ws.once('error', (err) => resolve({ reset: err.message }));
  });
}
