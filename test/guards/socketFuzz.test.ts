import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { rawExchange } from '../support/rawHttp';
import { startStack, type TestStack } from '../support/stack';
import { openSocket, tryOpenSocket, type TestSocket, type UpgradeOutcome } from '../support/vr';
import { entitledAccount } from './openapi';
import { scaled } from '../support/timeScale';

/**
 * The fuzz guard of the WebSocket endpoints: every channel of /asyncapi.json gets malformed frames (not JSON,
 * binary, JSON that is not an object, nesting 5,000 deep, no or an unknown `type`, a frame over the published
 * size), and every message a client may send gets variants of each field (missing, null, wrong types, huge,
 * unstorable text, unknown fields). Each variant goes on its own connection. A variant the edge must refuse
 * gets an `error` frame; none gets `internal_error`; the connection stays up (but for the oversized frame,
 * which closes it with 1009). Every frame the server sends is checked against /asyncapi.json by the contract
 * check every test runs under. Upgrade requests no client library would send (a request target that is no
 * URL, no key, a wrong version or method, a bad token) get a 4xx problem+json that the channel publishes, and
 * the process lives on. And one user opens as many sockets as the process takes connections on every
 * channel: past the published per-user limit each upgrade is refused with the published 429 too_many_sockets,
 * and the process stays reachable (HTTP, another user's socket). New endpoints are covered without new code.
 */

/** Connections the guard's process takes (WEB_MAX_CONNECTIONS): one user's attempts number as many. */
const PROCESS_CONNECTIONS = 60;

type Schema = {
  type?: string;
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  minLength?: number;
  maxLength?: number;
  additionalProperties?: boolean;
};
interface Channel {
  address: string;
  description: string;
  'x-max-frame-bytes': number;
  'x-upgrade-refusals': { status: number; code: string }[];
  'x-socket-limits': { perUser: number; perAddress: number };
  messages: Record<string, { payload: Schema }>;
}
interface Variant {
  name: string;
  frame: string | Buffer;
  /** The server must answer an error frame. */
  refused: boolean;
}

const UNSTORABLE = 'a\u0000b\ud800c';

/** A valid value of a (simple) schema. */
function valid(schema: Schema): unknown {
  if (schema.const !== undefined) return schema.const;
  switch (schema.type) {
    case 'string':
      return 'x'.repeat(Math.max(schema.minLength ?? 1, 1));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, valid(s)]));
    case 'array':
      return [];
    case 'boolean':
      return true;
    default:
      return 1;
  }
}

/** Wrong values for a field of this schema (each must be refused). */
function wrongValues(schema: Schema): [string, unknown][] {
  const wrong: [string, unknown][] = [
    ['null', null],
    ['an array', [1]],
  ];
  if (schema.type !== 'object') wrong.push(['an object', { a: 1 }]);
  if (schema.type !== 'number' && schema.type !== 'integer') wrong.push(['a number', 7]);
  if (schema.type === 'string') {
    wrong.push(['unstorable text', UNSTORABLE]);
    if (schema.maxLength) wrong.push(['over maxLength', 'x'.repeat(schema.maxLength + 1)]);
    if (schema.minLength) wrong.push(['empty', '']);
  }
  if (schema.const !== undefined) wrong.push(['another constant', `${String(schema.const)}_other`]);
  return wrong;
}

function variantsOf(channel: Channel, clientMessages: string[]): Variant[] {
  const variants: Variant[] = [
    { name: 'not JSON', frame: 'not json', refused: true },
    { name: 'empty frame', frame: '', refused: true },
    { name: 'a binary frame', frame: Buffer.from('{"type":"x"}'), refused: true },
    { name: 'JSON array', frame: '[]', refused: true },
    { name: 'JSON number', frame: '1', refused: true },
    { name: 'JSON null', frame: 'null', refused: true },
    { name: 'no type', frame: '{}', refused: true },
    { name: 'unknown type', frame: '{"type":"no_such_message"}', refused: true },
    {
      name: 'nesting 5,000 deep',
      frame: `{"type":"${clientMessages[0]}","a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      refused: true,
    },
  ];
  for (const name of clientMessages) {
    const schema = channel.messages[name].payload;
    const base = valid(schema) as Record<string, unknown>;
    variants.push({ name: `${name}: valid`, frame: JSON.stringify(base), refused: false });
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      const required = (schema.required ?? []).includes(field);
      const { [field]: _dropped, ...without } = base;
      variants.push({ name: `${name}: ${field} missing`, frame: JSON.stringify(without), refused: required });
      for (const [what, value] of wrongValues(fieldSchema))
        variants.push({
          name: `${name}: ${field} ${what}`,
          frame: JSON.stringify({ ...base, [field]: value }),
          refused: true,
        });
    }
    variants.push({
      name: `${name}: unknown field`,
      frame: JSON.stringify({ ...base, zz_unknown: 1 }),
      refused: schema.additionalProperties === false,
    });
  }
  return variants;
}

describe('fuzz: malformed frames on every WebSocket endpoint of /asyncapi.json', () => {
  let stack: TestStack;
  let ai: FakeOpenAI;
  let token: string;
  let channels: Channel[];
  let receiveOf: Map<string, string[]>;
  jest.setTimeout(scaled(120_000));
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['ok'] });
    stack = await startStack({
      workers: false,
      env: {
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: ai.baseUrl,
        WEB_MAX_CONNECTIONS: String(PROCESS_CONNECTIONS),
      },
    });
    token = (await entitledAccount(stack)).tokens.accessToken;
    const doc = (await stack.http.get('/asyncapi.json').expect(200)).body as {
      channels: Record<string, Channel>;
      operations: Record<string, { action: string; channel: { $ref: string }; messages: { $ref: string }[] }>;
    };
    channels = Object.values(doc.channels);
    receiveOf = new Map(
      Object.values(doc.operations)
        .filter((o) => o.action === 'receive')
        .map((o) => [
          doc.channels[o.channel.$ref.split('/').pop()!].address,
          o.messages.map((m) => m.$ref.split('/').pop()!),
        ]),
    );
  });
  afterAll(async () => {
    await stack?.close();
    await ai?.close();
  });

  /** Frames answered to one frame: until an error or a complete message, or 300 ms of silence. */
  async function answersTo(socket: TestSocket, frame: string | Buffer): Promise<Record<string, unknown>[]> {
    socket.ws.send(frame, { binary: Buffer.isBuffer(frame) });
    let seen = 0;
    let quietSince = Date.now();
    for (;;) {
      await new Promise((r) => setTimeout(r, 20));
      if (socket.received.some((m) => m.type === 'error' || m.type === 'message')) return socket.received;
      if (socket.received.length !== seen) [seen, quietSince] = [socket.received.length, Date.now()];
      if (Date.now() - quietSince > 300) return socket.received;
    }
  }

  it('publishes every endpoint with the messages clients send and its frame bound', () => {
    expect(channels.length).toBeGreaterThan(0);
    for (const channel of channels) {
      expect(receiveOf.get(channel.address)?.length).toBeGreaterThan(0);
      expect(channel['x-max-frame-bytes']).toBeGreaterThan(0);
      expect(channel.description).toContain('1009');
    }
  });

  it('answers every malformed frame with an error (never internal_error) and keeps the connection', async () => {
    const failures: string[] = [];
    for (const channel of channels) {
      for (const variant of variantsOf(channel, receiveOf.get(channel.address)!)) {
        const socket = await openSocket(stack, channel.address, token);
        try {
          const frames = await answersTo(socket, variant.frame);
          const errors = frames.filter((m) => m.type === 'error');
          if (errors.some((e) => e.code === 'internal_error'))
            failures.push(`${channel.address} ${variant.name}: internal_error`);
          if (variant.refused && !errors.length)
            failures.push(`${channel.address} ${variant.name}: not refused (${JSON.stringify(frames).slice(0, 200)})`);
          if (socket.ws.readyState !== socket.ws.OPEN)
            failures.push(`${channel.address} ${variant.name}: connection closed`);
        } finally {
          // Its place counts until it is closed: wait for that before the next one.
          socket.close();
          await socket.closed;
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('closes the connection with 1009 on a frame over the published bound', async () => {
    for (const channel of channels) {
      const socket = await openSocket(stack, channel.address, token);
      socket.ws.send(
        JSON.stringify({ type: receiveOf.get(channel.address)![0], text: 'x'.repeat(channel['x-max-frame-bytes']) }),
      );
      expect((await socket.closed).code).toBe(1009);
    }
    await stack.http.get('/health').expect(200);
  });

  it('caps the sockets of one user at the published limit; the process stays reachable for others', async () => {
    for (const channel of channels) {
      const limits = channel['x-socket-limits'];
      expect(limits?.perUser).toBeGreaterThan(0);
      const refusal = channel['x-upgrade-refusals'].find((r) => r.code === 'too_many_sockets');
      expect(refusal?.status).toBe(429);
      const outcomes: UpgradeOutcome[] = [];
      // As many attempts as the process takes connections, ten at a time (a client reconnecting in a loop).
      for (let i = 0; i < PROCESS_CONNECTIONS; i += 10)
        outcomes.push(
          ...(await Promise.all(Array.from({ length: 10 }, () => tryOpenSocket(stack.url, channel.address, token)))),
        );
      try {
        const open = outcomes.filter((o) => 'open' in o);
        const refused = outcomes.filter((o) => 'status' in o);
        expect({ open: open.length, refused: refused.length }).toEqual({
          open: limits.perUser,
          refused: PROCESS_CONNECTIONS - limits.perUser,
        });
        for (const o of refused)
          expect([o.status, o.body.code, o.headers['content-type']]).toEqual([
            429,
            'too_many_sockets',
            'application/problem+json',
          ]);
        await stack.http.get('/health').expect(200);
        const other = await openSocket(stack, channel.address, (await entitledAccount(stack)).tokens.accessToken);
        other.close();
      } finally {
        for (const o of outcomes) if ('open' in o) o.open.close();
      }
    }
  });

  it('answers broken upgrade requests with a published 4xx problem and keeps serving', async () => {
    const failures: string[] = [];
    for (const channel of channels) {
      const handshake = (target: string, headers: Record<string, string> = {}, method = 'GET') =>
        `${method} ${target} HTTP/1.1\r\n${Object.entries({
          Host: 'x',
          Connection: 'Upgrade',
          Upgrade: 'websocket',
          'Sec-WebSocket-Version': '13',
          'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
          ...headers,
        })
          .filter(([, v]) => v !== '')
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}\r\n`;
      const withToken = `${channel.address}?token=${encodeURIComponent(token)}`;
      const cases: [string, string][] = [
        ['a target that is no URL', handshake('http://[')],
        ['an absolute target without host', handshake('http://')],
        ['no token', handshake(channel.address)],
        ['a token that is not one', handshake(`${channel.address}?token=nope`)],
        ['no Sec-WebSocket-Key', handshake(withToken, { 'Sec-WebSocket-Key': '' })],
        ['a malformed Sec-WebSocket-Key', handshake(withToken, { 'Sec-WebSocket-Key': 'short' })],
        ['a wrong Sec-WebSocket-Version', handshake(withToken, { 'Sec-WebSocket-Version': '7' })],
        ['POST', handshake(withToken, {}, 'POST')],
        ['an unparsable Sec-WebSocket-Protocol', handshake(withToken, { 'Sec-WebSocket-Protocol': ',,' })],
      ];
      const declared = channel['x-upgrade-refusals'];
      for (const [name, request] of cases) {
        const answer = await rawExchange(stack.url, request);
        const code = answer.json?.code;
        const published =
          answer.status === 404
            ? code === 'route_not_found'
            : declared.some((r) => r.status === answer.status && r.code === code);
        if (
          answer.status < 400 ||
          answer.status >= 500 ||
          answer.headers['content-type'] !== 'application/problem+json' ||
          !published
        )
          failures.push(`${channel.address} ${name}: ${answer.status} ${answer.text.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    await stack.http.get('/health').expect(200);
  });
});
