import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { startStack, type TestStack } from '../support/stack';
import { openSocket, type TestSocket } from '../support/vr';
import { entitledAccount } from './openapi';

/**
 * The fuzz guard of the WebSocket endpoints: every channel of /asyncapi.json gets malformed frames (not JSON,
 * binary, JSON that is not an object, nesting 5,000 deep, no or an unknown `type`, a frame over the published
 * size), and every message a client may send gets variants of each field (missing, null, wrong types, huge,
 * unstorable text, unknown fields). Each variant goes on its own connection. A variant the edge must refuse
 * gets an `error` frame; none gets `internal_error`; the connection stays up (but for the oversized frame,
 * which closes it with 1009). Every frame the server sends is checked against /asyncapi.json by the contract
 * check every test runs under. New endpoints are covered without new code.
 */

type Schema = { type?: string; const?: unknown; properties?: Record<string, Schema>; required?: string[]; minLength?: number; maxLength?: number; additionalProperties?: boolean };
interface Channel {
  address: string;
  description: string;
  'x-max-frame-bytes': number;
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
    { name: 'nesting 5,000 deep', frame: `{"type":"${clientMessages[0]}","a":${'['.repeat(5000)}${']'.repeat(5000)}}`, refused: true },
  ];
  for (const name of clientMessages) {
    const schema = channel.messages[name].payload;
    const base = valid(schema) as Record<string, unknown>;
    variants.push({ name: `${name}: valid`, frame: JSON.stringify(base), refused: false });
    for (const [field, fieldSchema] of Object.entries(schema.properties ?? {})) {
      const required = (schema.required ?? []).includes(field);
      const { [field]: _dropped, ...without } = base;
      variants.push({ name: `${name}: ${field} missing`, frame: JSON.stringify(without), refused: required });
      for (const [what, value] of wrongValues(fieldSchema)) variants.push({ name: `${name}: ${field} ${what}`, frame: JSON.stringify({ ...base, [field]: value }), refused: true });
    }
    variants.push({ name: `${name}: unknown field`, frame: JSON.stringify({ ...base, zz_unknown: 1 }), refused: schema.additionalProperties === false });
  }
  return variants;
}

describe('fuzz: malformed frames on every WebSocket endpoint of /asyncapi.json', () => {
  let stack: TestStack;
  let ai: FakeOpenAI;
  let token: string;
  let channels: Channel[];
  let receiveOf: Map<string, string[]>;
  jest.setTimeout(120_000);
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['ok'] });
    stack = await startStack({ workers: false, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl } });
    token = (await entitledAccount(stack)).tokens.accessToken;
    const doc = (await stack.http.get('/asyncapi.json').expect(200)).body as { channels: Record<string, Channel>; operations: Record<string, { action: string; channel: { $ref: string }; messages: { $ref: string }[] }> };
    channels = Object.values(doc.channels);
    receiveOf = new Map(
      Object.values(doc.operations)
        .filter((o) => o.action === 'receive')
        .map((o) => [doc.channels[o.channel.$ref.split('/').pop()!].address, o.messages.map((m) => m.$ref.split('/').pop()!)]),
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
          if (errors.some((e) => e.code === 'internal_error')) failures.push(`${channel.address} ${variant.name}: internal_error`);
          if (variant.refused && !errors.length) failures.push(`${channel.address} ${variant.name}: not refused (${JSON.stringify(frames).slice(0, 200)})`);
          if (socket.ws.readyState !== socket.ws.OPEN) failures.push(`${channel.address} ${variant.name}: connection closed`);
        } finally {
          socket.close();
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('closes the connection with 1009 on a frame over the published bound', async () => {
    for (const channel of channels) {
      const socket = await openSocket(stack, channel.address, token);
      socket.ws.send(JSON.stringify({ type: receiveOf.get(channel.address)![0], text: 'x'.repeat(channel['x-max-frame-bytes']) }));
      expect((await socket.closed).code).toBe(1009);
    }
    await stack.http.get('/health').expect(200);
  });
});
