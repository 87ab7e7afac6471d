import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import type { Response } from 'supertest';
import { moduleKeys } from '../../api/http/guards';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fakeOpenAI';
import { FakeStripe } from '../support/fakeStripe';
import { WEBHOOK_SECRET } from '../support/billing';
import { relaxedLimits } from '../support/identity';
import { startStack, TEST_INTERNAL_SECRET, type TestStack } from '../support/stack';
import { headersFor, makeFixtures, paramsFor, type Fixture } from './fixtures';
import {
  entitledAccount,
  fillPath,
  inPool,
  isProblem,
  readDocument,
  sample,
  type ApiDocument,
  type Operation,
  type Schema,
} from './openapi';
import { scaled } from '../support/timeScale';

/**
 * The fuzz guard. Every operation of /openapi.json gets malformed variants of its input: no body, another
 * media type, malformed and non-object JSON, nesting 5,000 deep, an oversized body, and for every field
 * (one level into nested objects too) missing, null, wrong types, huge, empty, NUL and unpaired-surrogate
 * strings, out-of-range numbers, numbers in exponent notation (1e-7, 1e21) and -0, an object where an array is
 * expected and an array (or `[[]]`) where objects are, upper-case and nil UUIDs, the ends of the date and instant
 * ranges and just past them (year 0000, 10000 through an offset); bad ids in every path parameter (the other ones
 * real, from the fixtures); bad values, repeats, unknown names and the same extremes in query parameters. Every
 * read by real ids answers as the read by the same ids in upper case. The caller is a platform administrator
 * whose organisation is entitled to every module, with the internal secret, so every guard lets the request
 * through to validation and beyond. Reads run first, all in one pool; writes one operation at a time.
 * Measured on the shared 2-core VM (load 10-14), back to back: ~15% more requests than before these classes,
 * the same wall time (main test 202 s against 217 s) for ~5% more CPU, as requests share kept-alive connections.
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
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Numbers in exponent notation and negative zero (JSON.stringify writes -0 as 0: sent as raw JSON text). */
const NUMBER_EXTREMES: unknown[] = [1e-7, 1e21, -1e-7];
const NEGATIVE_ZERO = '"__guard_negative_zero__"';
/** The ends of what a date-time field holds, and just past them (UTC year 0 and 10000 through an offset). */
const INSTANT_EXTREMES = [
  '0001-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59.999Z',
  '1969-12-31T23:59:59Z',
  '1900-01-01T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59-01:00',
];
const DATE_EXTREMES = ['0001-01-01', '9999-12-31', '1969-12-31', '0000-01-01'];
/** Values of a string field of this schema that stress its format: upper-case and nil UUIDs, the ends of a date range. */
const formatExtremes = (s: Schema, real: unknown): string[] => {
  if (s.format === 'uuid')
    return [NIL_UUID, typeof real === 'string' ? real.toUpperCase() : NIL_UUID.replace(/0/g, 'F')];
  if (s.format === 'date-time') return INSTANT_EXTREMES;
  if (s.format === 'date') return DATE_EXTREMES;
  return [];
};
const CONCURRENCY = 6;
const keepAlive = new Agent({ keepAlive: true });

describe('fuzz: malformed variants of every operation of /openapi.json', () => {
  let stack: TestStack;
  let stripe: FakeStripe;
  let ai: FakeOpenAI;
  let doc: ApiDocument;
  let fixture: Fixture;
  let headers: Record<string, string>;
  // Fixtures of every module are made through the API, and every operation is called: minutes on a loaded machine.
  jest.setTimeout(scaled(900_000));
  beforeAll(async () => {
    [stripe, ai] = await Promise.all([FakeStripe.start(), startFakeOpenAI({ chunks: ['ok'] })]);
    stack = await startStack({
      workers: false,
      env: {
        ...relaxedLimits,
        RATE_LIMIT_ANON_PER_MINUTE: '100000',
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_API_URL: stripe.url,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        OPENAI_API_KEY: 'test-key',
        OPENAI_BASE_URL: ai.baseUrl,
        EINVOICE_PLATFORM_URL: 'http://127.0.0.1:9',
      },
    });
    doc = await readDocument(stack);
    const account = await entitledAccount(stack, { platformAdmin: true });
    fixture = await makeFixtures({ stack, account, admin: account });
    headers = { ...account.auth, 'X-Internal-Secret': TEST_INTERNAL_SECRET };
  });
  afterAll(async () => {
    keepAlive.destroy();
    await stack?.close();
    await Promise.all([stripe?.close(), ai?.close()]);
  });

  it('publishes bounds for every number, string and array a request takes', () => {
    const unbounded: string[] = [];
    const check = (schema: Schema | undefined, at: string, depth = 0): void => {
      const s = doc.resolve(schema);
      const type = [s.type].flat();
      if (s.enum || depth > 4) return;
      if (!type.some(Boolean) && !s.properties)
        unbounded.push(`${at}: no type (a custom validator? declare its schema with @JSONSchema)`);
      if ((type.includes('integer') || type.includes('number')) && (s.maximum === undefined || s.minimum === undefined))
        unbounded.push(`${at}: number without minimum and maximum`);
      if (type.includes('string') && s.maxLength === undefined && !s.pattern && !s.format)
        unbounded.push(`${at}: string without maxLength, pattern or format`);
      if (type.includes('array')) {
        if (s.maxItems === undefined && !(s.uniqueItems && doc.resolve(s.items as Schema).enum))
          unbounded.push(`${at}: array without maxItems`);
        check(s.items as Schema, `${at}[]`, depth + 1);
      }
      for (const [name, p] of Object.entries((s.properties ?? {}) as Record<string, Schema>))
        check(p, `${at}.${name}`, depth + 1);
    };
    for (const op of doc.operations) {
      if (op.jsonBody) check(op.jsonBody, `${op.key} body`);
      for (const q of op.query) check(q.schema, `${op.key} ?${q.name}`);
    }
    expect(unbounded).toEqual([]);
  });

  it(
    'answers every malformed request with a 4xx problem, never a 5xx, and refuses what the edge must refuse',
    async () => {
      const failures: string[] = [];
      let sent = 0;
      const check = async (op: Operation, variant: Variant) => {
        const res = await send(op, variant);
        sent++;
        const problem = verdict(res, variant);
        if (problem) failures.push(`${op.key} [${variant.name}] -> ${problem}`);
      };
      // Reads change nothing: their variants share one pool, before any write (so they meet the fixtures as made).
      const reads = doc.operations.filter((op) => op.method === 'get');
      const readJobs = reads.flatMap((op) => {
        const real = paramsFor(op, fixture).values;
        const jobs = variantsOf(op, real).map((variant) => () => check(op, variant));
        // A UUID is one id whatever its case: a read by the upper-case id answers as the read by the id itself.
        const uuids = op.pathParams.filter((name) => UUID.test(real[name] ?? ''));
        if (uuids.length) {
          const upper = Object.fromEntries(
            Object.entries(real).map(([name, value]) => [name, uuids.includes(name) ? value.toUpperCase() : value]),
          );
          jobs.push(async () => {
            const [asIs, upperCase] = await Promise.all([
              send(op, { name: 'real ids', path: fillPath(op.path, real) }),
              send(op, { name: 'upper-case ids', path: fillPath(op.path, upper) }),
            ]);
            sent += 2;
            if (asIs.status !== upperCase.status)
              failures.push(
                `${op.key} [upper-case ids] -> ${upperCase.status} ${upperCase.body?.code ?? ''}, the same ids in lower case ${asIs.status}`,
              );
          });
        }
        return jobs;
      });
      await inPool(readJobs, CONCURRENCY, (job) => job());
      // Writes one operation at a time, in the document's order.
      for (const op of doc.operations.filter((o) => o.method !== 'get')) {
        await inPool(variantsOf(op, paramsFor(op, fixture).values), CONCURRENCY, (variant) => check(op, variant));
        // A variant that went through must not have cost the caller its access (the fixtures point
        // self-harming admin routes at spare resources); otherwise everything after would be 401/403.
        const access = await stack.http.get('/api/entitlements/me').set(headers);
        if (
          access.status !== 200 ||
          access.body.suspended ||
          !moduleKeys.every((m) => access.body.modules.includes(m))
        ) {
          throw new Error(
            `${op.key}: a variant cost the fuzz account its access (${access.status} ${JSON.stringify(access.body)}); point its fixture at a spare resource`,
          );
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(doc.operations.length * 5);
    },
    scaled(900_000),
  );

  function send(op: Operation, v: Variant): Promise<Response> {
    // One kept-alive connection per pool slot: supertest opens a connection per request otherwise.
    let req = stack.http[op.method](v.query ? `${v.path}?${v.query}` : v.path)
      .agent(keepAlive)
      .set({ ...headers, ...headersFor(op, fixture) });
    if (v.contentType) req = req.set('Content-Type', v.contentType);
    if (v.raw !== undefined) return req.send(v.raw);
    return v.body === undefined ? req : req.send(v.body as object);
  }

  function verdict(res: Response, v: Variant): string | null {
    if (res.status >= 500) return `${res.status} ${res.body?.code ?? res.text.slice(0, 120)}`;
    if (res.status >= 400 && !isProblem(res))
      return `${res.status} without a problem+json code: ${res.text.slice(0, 120)}`;
    if (v.refused && res.status < 400) return `${res.status}: accepted input the edge must refuse`;
    return null;
  }

  /** Every malformed variant of an operation's input; nothing when it takes no input at all. */
  function variantsOf(op: Operation, real: Record<string, string>): Variant[] {
    const path = fillPath(op.path, real);
    const base = op.jsonBody ? (fixture.bodies?.[op.key] ?? sample(op.jsonBody, doc)) : undefined;
    const out: Variant[] = [];
    for (const name of op.pathParams) {
      for (const bad of [
        'not-an-id',
        '-1',
        randomUUID(),
        NIL_UUID,
        'a%00b',
        '%ED%A0%80',
        'x'.repeat(3000),
        '..%2F..%2Fadmin',
        '%',
      ]) {
        out.push({
          name: `path ${name}=${bad.slice(0, 20)}`,
          path: fillPath(op.path, { ...real, [name]: bad }, [name]),
          body: base,
        });
      }
    }
    if (op.query.length) {
      out.push({ name: 'unknown query parameter', path, query: '__guard=1', body: base, refused: true });
      out.push({ name: 'query __proto__', path, query: '__proto__=1&constructor=x', body: base, refused: true });
      for (const { name, schema } of op.query) {
        const s = doc.resolve(schema);
        const item = [s.type].flat().includes('array') ? doc.resolve(s.items as Schema) : s;
        const extremes = [
          ...formatExtremes(item, undefined),
          ...([item.type].flat().some((t) => t === 'integer' || t === 'number') ? ['1e-7', '-0', '1e21'] : []),
        ];
        for (const bad of ['x', '-1', '1e308', 'x'.repeat(3000), '%'])
          out.push({ name: `query ${name}=${bad.slice(0, 20)}`, path, query: `${name}=${bad}`, body: base });
        for (const extreme of extremes)
          out.push({
            name: `query ${name}=${extreme}`,
            path,
            query: `${name}=${encodeURIComponent(extreme)}`,
            body: base,
          });
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
      out.push({
        name: 'form encoded',
        path,
        raw: 'a=1',
        contentType: 'application/x-www-form-urlencoded',
        refused: true,
      });
      out.push({ name: 'malformed JSON', path, raw: '{"a":', contentType: 'application/json', refused: true });
      for (const json of ['[]', 'null', '"x"'])
        out.push({ name: `JSON ${json}`, path, raw: json, contentType: 'application/json', refused: true });
      out.push({
        name: 'nested 5,000 deep',
        path,
        raw: `{"guard":${deep(5000)}}`,
        contentType: 'application/json',
        refused: true,
      });
      out.push({
        name: 'nested 33 deep in a field',
        path,
        body: { ...(base as object), [Object.keys(op.jsonBody.properties ?? {})[0] ?? 'guard']: JSON.parse(deep(33)) },
        refused: true,
      });
      out.push({
        name: 'oversized body',
        path,
        raw: JSON.stringify({ guard: 'x'.repeat(2_100_000) }),
        contentType: 'application/json',
        refused: true,
      });
      out.push({ name: 'unknown field', path, body: { ...(base as object), __guard: 1 }, refused: true });
      out.push({ name: 'unstorable key', path, body: { ...(base as object), [UNSTORABLE]: 1 }, refused: true });
      out.push({
        name: '__proto__ key',
        path,
        raw: `{"__proto__":{"isPlatformAdmin":true},${JSON.stringify(base).slice(1)}`,
        contentType: 'application/json',
        refused: true,
      });
      out.push(
        ...fieldVariants(op.jsonBody, base as Record<string, unknown>, (body) => body, '', 0).map((v) => ({
          ...v,
          path,
        })),
      );
    }
    return out;
  }

  /** Variants of each field of an object schema; `wrap` puts the changed object back into the whole body. */
  function fieldVariants(
    schema: Schema,
    object: Record<string, unknown>,
    wrap: (o: unknown) => unknown,
    prefix: string,
    depth: number,
  ): Omit<Variant, 'path'>[] {
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
      // Objects where arrays are expected and empty arrays where objects are.
      const wrongTypes: unknown[] =
        type === 'string'
          ? [12345, { __guard: 1 }]
          : type === 'boolean'
            ? ['true', { __guard: 1 }]
            : type === 'array'
              ? ['x', [null], {}, []]
              : type === 'object' || s.properties
                ? ['x', []]
                : ['12', { __guard: 1 }];
      for (const wrong of wrongTypes)
        out.push({ name: `${at}=${JSON.stringify(wrong)}`, body: withField(name, wrong) });
      out.push({ name: `${at} unstorable text`, body: withField(name, UNSTORABLE), refused: true });
      out.push({ name: `${at} huge string`, body: withField(name, HUGE), refused: true });
      out.push({ name: `${at} empty string`, body: withField(name, '') });
      if (type === 'string')
        for (const extreme of formatExtremes(s, object[name]))
          out.push({ name: `${at}=${extreme}`, body: withField(name, extreme) });
      if (type === 'integer' || type === 'number') {
        for (const n of [1e308, -1e308]) out.push({ name: `${at}=${n}`, body: withField(name, n), refused: true });
        for (const n of [2 ** 31, -1, 1.5, ...NUMBER_EXTREMES])
          out.push({ name: `${at}=${n}`, body: withField(name, n) });
        out.push({
          name: `${at}=-0`,
          raw: JSON.stringify(withField(name, JSON.parse(NEGATIVE_ZERO))).replace(NEGATIVE_ZERO, '-0'),
          contentType: 'application/json',
        });
      }
      if (type === 'array') {
        out.push({ name: `${at} 10,001 items`, body: withField(name, Array(10_001).fill(0)), refused: true });
        const item = doc.resolve(s.items as Schema);
        if ([item.type].flat().includes('string'))
          for (const extreme of formatExtremes(item, (object[name] as unknown[] | undefined)?.[0]))
            out.push({ name: `${at}=[${extreme}]`, body: withField(name, [extreme]) });
        if (item.properties) out.push({ name: `${at}=[[]]`, body: withField(name, [[]]) });
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
