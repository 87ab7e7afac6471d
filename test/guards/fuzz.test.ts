import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { moduleKeys } from '../../api/http/guards';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { FakeStripe } from '../support/fakeStripe';
import { WEBHOOK_SECRET } from '../support/billing';
import { relaxedLimits } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { headersFor, makeFixtures, paramsFor, type Fixture } from './fixtures';
import { entitledAccount, fillPath, inPool, isProblem, readDocument, sample, type ApiDocument, type Operation, type Schema } from './openapi';

/**
 * The fuzz guard. Every operation of /openapi.json gets malformed variants of its input: no body, another
 * media type, malformed and non-object JSON, nesting 5,000 deep, an oversized body, and for every field
 * (one level into nested objects too) missing, null, wrong types, huge, empty, NUL and unpaired-surrogate
 * strings, out-of-range numbers, oversized arrays, unknown fields; bad ids in every path parameter (the
 * other ones real, from the fixtures); bad values, repeats and unknown names in query parameters. The caller is a
 * platform administrator whose organisation is entitled to every module, with the internal secret, so
 * every guard lets the request through to validation and beyond.
 *
 * Any 5xx fails, and so does any 4xx that is not problem+json with a code. Input the edge must refuse
 * whatever the route (unstorable text, nesting, unknown fields, out-of-bounds values) must not answer 2xx.
 * New routes are covered without new code; the only thing a module may have to add is its fixture (for
 * real ids in path parameters, see fixtures/index.ts).
 */

interface Variant {
  name: string;
  path: string;
  query?: string;
  /** A value sent as JSON, or a raw string sent with `contentType`. */
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** The edge must refuse it (>= 400), whatever the route. */
  refused?: boolean;
}

/** A NUL and an unpaired surrogate: text PostgreSQL cannot store. */
const UNSTORABLE = 'a\u0000b\ud800c';
const HUGE = 'x'.repeat(50_000);
const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const CONCURRENCY = 6;

describe('fuzz: malformed variants of every operation of /openapi.json', () => {
  let stack: TestStack;
  let stripe: FakeStripe;
  let ai: FakeOpenAI;
  let doc: ApiDocument;
  let fixture: Fixture;
  let headers: Record<string, string>;
  // Fixtures of every module are made through the API, and every operation is called: minutes on a loaded machine.
  jest.setTimeout(900_000);
  beforeAll(async () => {
    [stripe, ai] = await Promise.all([FakeStripe.start(), startFakeOpenAI({ chunks: ['ok'] })]);
    stack = await startStack({
      workers: false,
      env: { ...relaxedLimits, RATE_LIMIT_ANON_PER_MINUTE: '100000', STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_API_URL: stripe.url, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: ai.baseUrl, EINVOICE_PLATFORM_URL: 'http://127.0.0.1:9' },
    });
    doc = await readDocument(stack);
    const account = await entitledAccount(stack, { platformAdmin: true });
    fixture = await makeFixtures({ stack, account, admin: account });
    headers = { ...account.auth, 'X-Internal-Secret': TEST_INTERNAL_SECRET };
  });
  afterAll(async () => {
    await stack?.close();
    await Promise.all([stripe?.close(), ai?.close()]);
  });

  it('publishes bounds for every number, string and array a request takes', () => {
    const unbounded: string[] = [];
    const check = (schema: Schema | undefined, at: string, depth = 0): void => {
      const s = doc.resolve(schema);
      const type = [s.type].flat();
      if (s.enum || depth > 4) return;
      if (!type.some(Boolean) && !s.properties) unbounded.push(`${at}: no type (a custom validator? declare its schema with @JSONSchema)`);
      if ((type.includes('integer') || type.includes('number')) && (s.maximum === undefined || s.minimum === undefined)) unbounded.push(`${at}: number without minimum and maximum`);
      if (type.includes('string') && s.maxLength === undefined && !s.pattern && !s.format) unbounded.push(`${at}: string without maxLength, pattern or format`);
      if (type.includes('array')) {
        if (s.maxItems === undefined && !(s.uniqueItems && doc.resolve(s.items as Schema).enum)) unbounded.push(`${at}: array without maxItems`);
        check(s.items as Schema, `${at}[]`, depth + 1);
      }
      for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) check(p, `${at}.${name}`, depth + 1);
    };
    for (const op of doc.operations) {
      if (op.jsonBody) check(op.jsonBody, `${op.key} body`);
      for (const q of op.query) check(q.schema, `${op.key} ?${q.name}`);
    }
    expect(unbounded).toEqual([]);
  });

  it('answers every malformed request with a 4xx problem, never a 5xx, and refuses what the edge must refuse', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const op of doc.operations) {
      const real = paramsFor(op, fixture).values;
      const variants = variantsOf(op, real);
      await inPool(variants, CONCURRENCY, async (variant) => {
        const res = await send(op, variant);
        sent++;
        const problem = verdict(res, variant);
        if (problem) failures.push(`${op.key} [${variant.name}] -> ${problem}`);
      });
      // A variant that went through must not have cost the caller its access (the fixtures point
      // self-harming admin routes at spare resources); otherwise everything after would be 401/403.
      const access = await stack.http.get('/api/entitlements/me').set(headers);
      if (access.status !== 200 || access.body.suspended || !moduleKeys.every((m) => access.body.modules.includes(m))) {
        throw new Error(`${op.key}: a variant cost the fuzz account its access (${access.status} ${JSON.stringify(access.body)}); point its fixture at a spare resource`);
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(doc.operations.length * 5);
  }, 900_000);

  function send(op: Operation, v: Variant): Promise<Response> {
    let req = stack.http[op.method](v.query ? `${v.path}?${v.query}` : v.path).set({ ...headers, ...headersFor(op, fixture) });
    if (v.contentType) req = req.set('Content-Type', v.contentType);
    if (v.raw !== undefined) return req.send(v.raw);
    return v.body === undefined ? req : req.send(v.body as object);
  }

  function verdict(res: Response, v: Variant): string | null {
    if (res.status >= 500) return `${res.status} ${res.body?.code ?? res.text.slice(0, 120)}`;
    if (res.status >= 400 && !isProblem(res)) return `${res.status} without a problem+json code: ${res.text.slice(0, 120)}`;
    if (v.refused && res.status < 400) return `${res.status}: accepted input the edge must refuse`;
    return null;
  }

  /** Every malformed variant of an operation's input; nothing when it takes no input at all. */
  function variantsOf(op: Operation, real: Record<string, string>): Variant[] {
    const path = fillPath(op.path, real);
    const base = op.jsonBody ? (fixture.bodies?.[op.key] ?? sample(op.jsonBody, doc)) : undefined;
    const out: Variant[] = [];
    for (const name of op.pathParams) {
      for (const bad of ['not-an-id', '-1', randomUUID(), 'a%00b', '%ED%A0%80', 'x'.repeat(3000), '..%2F..%2Fadmin', '%']) {
        out.push({ name: `path ${name}=${bad.slice(0, 20)}`, path: fillPath(op.path, { ...real, [name]: bad }, [name]), body: base });
      }
    }
    if (op.query.length) {
      out.push({ name: 'unknown query parameter', path, query: '__guard=1', body: base, refused: true });
      out.push({ name: 'query __proto__', path, query: '__proto__=1&constructor=x', body: base, refused: true });
      for (const { name } of op.query) {
        for (const bad of ['x', '-1', '1e308', 'x'.repeat(3000), '%']) out.push({ name: `query ${name}=${bad.slice(0, 20)}`, path, query: `${name}=${bad}`, body: base });
        out.push({ name: `query ${name}=a%00b`, path, query: `${name}=a%00b`, body: base, refused: true });
        out.push({ name: `query ${name} twice`, path, query: `${name}=a&${name}=b`, body: base });
      }
    }
    if (op.rawBody) {
      out.push({ name: 'garbage body', path, raw: '\u0000\u00ff{', contentType: 'application/octet-stream' });
      out.push({ name: 'deep JSON body', path, raw: deep(5000), contentType: 'application/json' });
    }
    if (op.jsonBody) {
      out.push({ name: 'no body', path, refused: true });
      out.push({ name: 'text/plain', path, raw: 'x', contentType: 'text/plain', refused: true });
      out.push({ name: 'form encoded', path, raw: 'a=1', contentType: 'application/x-www-form-urlencoded', refused: true });
      out.push({ name: 'malformed JSON', path, raw: '{"a":', contentType: 'application/json', refused: true });
      for (const json of ['[]', 'null', '"x"']) out.push({ name: `JSON ${json}`, path, raw: json, contentType: 'application/json', refused: true });
      out.push({ name: 'nested 5,000 deep', path, raw: `{"guard":${deep(5000)}}`, contentType: 'application/json', refused: true });
      out.push({ name: 'nested 33 deep in a field', path, body: { ...(base as object), [Object.keys(op.jsonBody.properties ?? {})[0] ?? 'guard']: JSON.parse(deep(33)) }, refused: true });
      out.push({ name: 'oversized body', path, raw: JSON.stringify({ guard: 'x'.repeat(2_100_000) }), contentType: 'application/json', refused: true });
      out.push({ name: 'unknown field', path, body: { ...(base as object), __guard: 1 }, refused: true });
      out.push({ name: 'unstorable key', path, body: { ...(base as object), [UNSTORABLE]: 1 }, refused: true });
      out.push({ name: '__proto__ key', path, raw: `{"__proto__":{"isPlatformAdmin":true},${JSON.stringify(base).slice(1)}`, contentType: 'application/json', refused: true });
      out.push(...fieldVariants(op.jsonBody, base as Record<string, unknown>, (body) => body, '', 0).map((v) => ({ ...v, path })));
    }
    return out;
  }

  /** Variants of each field of an object schema; `wrap` puts the changed object back into the whole body. */
  function fieldVariants(schema: Schema, object: Record<string, unknown>, wrap: (o: unknown) => unknown, prefix: string, depth: number): Omit<Variant, 'path'>[] {
    const out: Omit<Variant, 'path'>[] = [];
    const props = (doc.resolve(schema).properties ?? {}) as Record<string, Schema>;
    const withField = (name: string, value: unknown) => wrap({ ...object, [name]: value });
    for (const [name, raw] of Object.entries(props)) {
      const s = doc.resolve(raw);
      const type = [s.type].flat().find((t) => t !== 'null') as string | undefined;
      const at = `${prefix}${name}`;
      const { [name]: _drop, ...without } = object;
      out.push({ name: `${at} missing`, body: wrap(without) });
      out.push({ name: `${at} null`, body: withField(name, null) });
      // Another type: a scalar and a container (an object for scalars, which also stands for unknown nested fields).
      const wrongTypes: unknown[] = type === 'string' ? [12345, { __guard: 1 }] : type === 'boolean' ? ['true', { __guard: 1 }] : type === 'array' ? ['x', [null]] : type === 'object' || s.properties ? ['x', []] : ['12', { __guard: 1 }];
      for (const wrong of wrongTypes) out.push({ name: `${at}=${JSON.stringify(wrong)}`, body: withField(name, wrong) });
      out.push({ name: `${at} unstorable text`, body: withField(name, UNSTORABLE), refused: true });
      out.push({ name: `${at} huge string`, body: withField(name, HUGE), refused: true });
      out.push({ name: `${at} empty string`, body: withField(name, '') });
      if (type === 'integer' || type === 'number') {
        for (const n of [1e308, -1e308]) out.push({ name: `${at}=${n}`, body: withField(name, n), refused: true });
        for (const n of [2 ** 31, -1, 1.5]) out.push({ name: `${at}=${n}`, body: withField(name, n) });
      }
      if (type === 'array') {
        out.push({ name: `${at} 10,001 items`, body: withField(name, Array(10_001).fill(0)), refused: true });
        const item = doc.resolve(s.items as Schema);
        if (depth < 1 && item.properties) {
          const first = sample(item, doc) as Record<string, unknown>;
          out.push(...fieldVariants(item, first, (changed) => withField(name, [changed]), `${at}[0].`, depth + 1));
        }
      }
      if (depth < 1 && s.properties) {
        const nested = (object[name] ?? sample(s, doc)) as Record<string, unknown>;
        out.push(...fieldVariants(s, nested, (changed) => withField(name, changed), `${at}.`, depth + 1));
      }
    }
    return out;
  }
});
