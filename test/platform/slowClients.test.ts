import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import { startStack, type TestStack } from '../support/stack';

/** Slow clients and connection floods cannot hold a web process: request timeout and a per-process connection cap. */
describe('web process limits', () => {
  let stack: TestStack;
  let port: number;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { HTTP_REQUEST_TIMEOUT_SECONDS: '2', WEB_MAX_CONNECTIONS: '6' } });
    port = Number(new URL(stack.url).port);
  });
  afterAll(() => stack.close());

  /** A raw connection collecting what the server writes; `ended` resolves when the server closes it. */
  async function rawClient(): Promise<{ socket: Socket; received: () => string; ended: Promise<number> }> {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('error', () => undefined);
    const started = Date.now();
    const ended = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    await once(socket, 'connect');
    return { socket, received: () => data, ended };
  }

  it('answers 408 and closes a request whose body trickles in past the request timeout', async () => {
    const client = await rawClient();
    client.socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const trickle = setInterval(() => client.socket.write(' '), 300);
    try {
      const ms = await client.ended;
      expect(ms).toBeLessThan(4500);
      expect(client.received()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(trickle);
    }
  });

  it('closes a connection whose headers never finish', async () => {
    const client = await rawClient();
    client.socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => client.socket.write('X-Slow: 1\r\n'), 300);
    try {
      expect(await client.ended).toBeLessThan(4500);
    } finally {
      clearInterval(trickle);
    }
  });

  it('refuses connections beyond the cap, and takes new ones once some close', async () => {
    const held = await Promise.all(Array.from({ length: 6 }, () => rawClient()));
    const extra = await rawClient().catch(() => null);
    if (extra) expect(await extra.ended).toBeLessThan(1000);
    for (const c of held) c.socket.destroy();
    await Promise.all(held.map((c) => c.ended));
    expect((await stack.http.get('/health')).status).toBe(200);
  });
});
