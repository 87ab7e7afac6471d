import { once } from 'node:events';
import type { WebSocket } from 'ws';
import { startDyno } from '../support/dyno';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import type { Account } from '../support/factories';
import { rawExchange } from '../support/rawHttp';
import { freePort, startStack, type TestStack } from '../support/stack';
import { tryOpenSocket, vrOrg, type UpgradeOutcome } from '../support/vr';
import { eventually } from '../support/wait';
import { scaled } from '../support/timeScale';

const PER_USER = 3;
const PER_ADDRESS = 4;

/**
 * WebSockets are capped per user and per client address on every endpoint and dyno together (leases in Redis),
 * and per process below its connection cap. Every refusal is an HTTP problem the AsyncAPI document publishes
 * (the contract check of every test verifies that); a place is given back when its connection ends, and a dyno
 * that dies keeps its places only until their leases lapse.
 */
describe('WebSocket limits', () => {
  let stack: TestStack;
  let other: TestStack;
  let ai: FakeOpenAI;
  let addresses = 0;
  const held: WebSocket[] = [];
  jest.setTimeout(scaled(90_000));
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['ok'] });
    stack = await startStack({
      workers: false,
      env: {
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: ai.baseUrl,
        WS_MAX_SOCKETS_PER_USER: String(PER_USER),
        WS_MAX_SOCKETS_PER_ADDRESS: String(PER_ADDRESS),
      },
    });
    other = await startStack({ sharing: stack, workers: false });
  });
  afterEach(() => {
    for (const ws of held.splice(0)) ws.close();
  });
  afterAll(async () => {
    await other?.close();
    await stack?.close();
    await ai?.close();
  });

  /** A client address of its own for each test (TRUST_PROXY trusts the loopback proxy's X-Forwarded-For). */
  const newAddress = () => ({ 'X-Forwarded-For': `203.0.113.${++addresses}` });

  async function attempt(
    on: TestStack | string,
    account: Account,
    from: Record<string, string>,
  ): Promise<UpgradeOutcome> {
    const outcome = await tryOpenSocket(
      typeof on === 'string' ? on : on.url,
      '/assistant',
      account.tokens.accessToken,
      from,
    );
    if ('open' in outcome) held.push(outcome.open);
    return outcome;
  }

  const opened = (o: UpgradeOutcome): WebSocket => {
    if (!('open' in o)) throw new Error(`not opened: ${JSON.stringify(o)}`);
    return o.open;
  };

  const refusal = (o: UpgradeOutcome) =>
    'status' in o ? { status: o.status, code: o.body.code, type: o.headers['content-type'] } : o;

  it("counts a user's sockets on every dyno; closing one gives its place back", async () => {
    const [member] = (await vrOrg(stack, 1)).members;
    const from = newAddress();
    opened(await attempt(stack, member, from));
    const onOther = opened(await attempt(other, member, from));
    opened(await attempt(stack, member, from));
    for (const dyno of [stack, other])
      expect(refusal(await attempt(dyno, member, from))).toEqual({
        status: 429,
        code: 'too_many_sockets',
        type: 'application/problem+json',
      });
    // Another member, from the same address, still gets in.
    const [colleague] = (await vrOrg(stack, 1)).members;
    opened(await attempt(stack, colleague, from));

    onOther.close();
    await eventually(async () => 'open' in (await attempt(stack, member, from)), {
      what: 'the place of the closed socket',
    });
  });

  it('caps an address whoever signs in, and only that address', async () => {
    const { members } = await vrOrg(stack, 2);
    const from = newAddress();
    for (let i = 0; i < PER_USER; i++) opened(await attempt(stack, members[0], from));
    opened(await attempt(other, members[1], from));
    const refused = await attempt(stack, members[1], from);
    expect(refusal(refused)).toEqual({ status: 429, code: 'too_many_sockets', type: 'application/problem+json' });
    expect('status' in refused && refused.body.detail).toBe(
      `This address already holds ${PER_ADDRESS} open sockets: close one first`,
    );
    opened(await attempt(stack, members[1], newAddress()));
  });

  it('answers a request that is not a handshake with a problem, and gives its place back', async () => {
    const [member] = (await vrOrg(stack, 1)).members;
    const from = newAddress();
    for (let i = 0; i < PER_USER + 2; i++) {
      const answer = await rawExchange(
        stack.url,
        `GET /assistant?token=${member.tokens.accessToken} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nX-Forwarded-For: ${from['X-Forwarded-For']}\r\n\r\n`,
      );
      expect([answer.status, answer.headers['content-type']]).toEqual([400, 'application/problem+json']);
      expect(answer.json).toMatchObject({
        status: 400,
        code: 'invalid_handshake',
        detail: 'Missing or invalid Sec-WebSocket-Key header',
      });
    }
    // Each place was given back when its connection ended: the member still opens as many sockets as allowed.
    await eventually(
      async () => {
        for (const ws of held.splice(0)) ws.close();
        const outcomes = [];
        for (let i = 0; i < PER_USER; i++) outcomes.push(await attempt(stack, member, from));
        return outcomes.every((o) => 'open' in o);
      },
      { what: 'every place given back' },
    );
  });

  it('a process at its socket capacity answers 503 socket_capacity_reached and goes on serving', async () => {
    const small = await startStack({
      sharing: stack,
      workers: false,
      env: { WEB_MAX_CONNECTIONS: '10', WS_MAX_SOCKETS_PER_PROCESS: '2' },
    });
    try {
      const { members } = await vrOrg(stack, 3);
      const first = opened(await attempt(small, members[0], newAddress()));
      opened(await attempt(small, members[1], newAddress()));
      const refused = await attempt(small, members[2], newAddress());
      expect(refusal(refused)).toEqual({
        status: 503,
        code: 'socket_capacity_reached',
        type: 'application/problem+json',
      });
      expect('status' in refused && refused.headers['retry-after']).toBe('5');
      await small.http.get('/health').expect(200);
      // Another dyno still takes the member (the limits per user and address are not reached).
      opened(await attempt(stack, members[2], newAddress()));
      first.close();
      await eventually(async () => 'open' in (await attempt(small, members[2], newAddress())), {
        what: 'a place on the small dyno',
      });
      for (const ws of held.splice(0)) ws.close();
    } finally {
      await small.close();
    }
  });

  it('forgets the sockets of a dyno that died once their leases lapse', async () => {
    const [member] = (await vrOrg(stack, 1)).members;
    const from = newAddress();
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const dyno = startDyno('api/server.ts', {
      ...stack.env,
      PORT: String(port),
      PUBLIC_URL: url,
      WS_SOCKET_LEASE_SECONDS: '2',
    });
    try {
      await eventually(async () => (await fetch(`${url}/health`)).ok, {
        timeoutMs: 60_000,
        intervalMs: 200,
        what: 'the dyno to listen',
      });
      const closed = [];
      for (let i = 0; i < PER_USER; i++) closed.push(once(opened(await attempt(url, member, from)), 'close'));
      await dyno.stop('SIGKILL');
      await Promise.all(closed);
      // Its sockets are gone but still counted, until their leases (2 s) lapse.
      const killedAt = Date.now();
      expect(refusal(await attempt(stack, member, from))).toMatchObject({ status: 429, code: 'too_many_sockets' });
      await eventually(async () => 'open' in (await attempt(stack, member, from)), {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'the lapse of the dead dyno leases',
      });
      expect(Date.now() - killedAt).toBeLessThan(5000);
    } finally {
      await dyno.stop('SIGKILL');
    }
  });

  it('keeps no count once every socket is closed', async () => {
    const [member] = (await vrOrg(stack, 1)).members;
    for (let i = 0; i < PER_USER; i++) opened(await attempt(stack, member, newAddress()));
    for (const ws of held.splice(0)) ws.close();
    const key = stack.services.key('ws', 'user', member.user.id);
    await eventually(async () => (await stack.services.redis.exists(key)) === 0, { what: 'the user count removed' });
  });
});
