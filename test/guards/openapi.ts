import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { moduleKeys } from '../../api/http/guards';
import { setSubscription } from '../support/billing';
import { createAccount, type Account } from '../support/factories';
import type { TestStack } from '../support/stack';

/**
 * What the suite-wide guards (fuzz.test.ts, crossTenant.test.ts) read from /openapi.json: every operation,
 * its path, query and body parameters, and a request body built from its schema. Nothing here names a route:
 * a new route is covered as soon as it is declared.
 */
export type Schema = Record<string, unknown>;

export interface Operation {
  /** `PATCH /rooms/{id}`: how fixtures and failures name an operation. */
  key: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The OpenAPI path template. */
  path: string;
  /** Path parameters, from the template (also those the document does not list). */
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  /** The JSON body schema, when the operation takes application/json. */
  jsonBody?: Schema;
  /** Takes a body of another media type (a webhook's raw body). */
  rawBody: boolean;
  /** Needs no credentials (`security: []`): anyone may call it. */
  anonymous: boolean;
}

export interface ApiDocument {
  operations: Operation[];
  /** Resolves `$ref`s against the document's components. */
  resolve(schema: Schema | undefined): Schema;
}

export async function readDocument(stack: TestStack): Promise<ApiDocument> {
  const doc = (await stack.http.get('/openapi.json')).body as {
    paths: Record<string, Record<string, Schema>>;
    components: { schemas: Record<string, Schema> };
  };
  const resolve = (schema: Schema | undefined): Schema => {
    const ref = schema?.$ref as string | undefined;
    return ref ? resolve(doc.components.schemas[ref.split('/').pop()!]) : (schema ?? {});
  };
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = (op.parameters ?? []) as { name: string; in: string; schema: Schema }[];
      const body = op.requestBody as Schema | undefined;
      const content = (body?.content ?? {}) as Record<string, { schema?: Schema }>;
      // A signed raw body (x-raw-body: a webhook) is read as bytes, its signature checked before any parsing.
      const raw = body?.['x-raw-body'] === true;
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method as Operation['method'],
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        jsonBody: content['application/json'] && !raw ? resolve(content['application/json'].schema) : undefined,
        rawBody: raw || Object.keys(content).some((type) => type !== 'application/json'),
        anonymous: Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return { operations, resolve };
}

/** The path with its parameters filled in (each value encoded unless `raw`). */
export const fillPath = (path: string, values: Record<string, string>, raw: string[] = []) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) =>
    raw.includes(name) ? values[name] : encodeURIComponent(values[name]),
  );

/** Strings tried, in order, for a string field with a pattern; the first the schema accepts is used. */
const CANDIDATES = [
  'guard',
  'ab',
  'en',
  'auth.login',
  'fire-safety-101',
  'price_guard',
  'GUARD-1',
  'x'.repeat(32),
  '2030-01-01T00:00:00.000Z',
  'Europe/Paris',
];

function sampleString(s: Schema): string {
  if (s.format === 'email') return `guard.${randomUUID().slice(0, 8)}@example.test`;
  if (s.format === 'uuid') return randomUUID();
  if (s.format === 'date-time') return new Date(Date.now() + 86_400_000).toISOString();
  const min = Number(s.minLength ?? 0);
  const max = Number(s.maxLength ?? Infinity);
  const pattern = typeof s.pattern === 'string' ? new RegExp(s.pattern) : null;
  const fits = (v: string) => v.length >= min && v.length <= max && (!pattern || pattern.test(v));
  return [...CANDIDATES, 'x'.repeat(Math.max(1, min))].find(fits) ?? 'guard';
}

/**
 * A plausible value for a schema: enums take their first value, strings a candidate their pattern and
 * lengths accept, numbers their minimum, arrays one item, objects every property. Good enough for most
 * bodies to pass validation; a fixture registers the body of an operation where it is not.
 */
export function sample(schema: Schema | undefined, doc: ApiDocument, depth = 0): unknown {
  const s = doc.resolve(schema);
  if (Array.isArray(s.enum)) return s.enum[0];
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== 'null') : (s.type as string | undefined);
  switch (type) {
    case 'string':
      return sampleString(s);
    case 'integer':
    case 'number':
      return Math.max(Number(s.minimum ?? 1), Math.min(1, Number(s.maximum ?? 1)));
    case 'boolean':
      return true;
    case 'array':
      return depth > 4 ? [] : [sample(s.items as Schema, doc, depth + 1)];
    default: {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      if (depth > 4) return {};
      return Object.fromEntries(Object.entries(props).map(([name, p]) => [name, sample(p, doc, depth + 1)]));
    }
  }
}

/**
 * A problem+json answer with a stable code, as every 4xx must be; on the SCIM surface (/scim/v2, RFC 7644 3.12),
 * whose clients expect its own format, a SCIM error carrying its status.
 */
export function isProblem(res: Response): boolean {
  const type = String(res.headers['content-type'] ?? '');
  if (/^application\/scim\+json/.test(type))
    return (
      Array.isArray(res.body?.schemas) &&
      res.body.schemas.includes('urn:ietf:params:scim:api:messages:2.0:Error') &&
      res.body.status === String(res.status)
    );
  return /^application\/problem\+json/.test(type) && typeof res.body?.code === 'string' && res.body.code.length > 0;
}

/** An organisation entitled to every module the suite has (the enterprise tier plus every module as an add-on), and its owner. */
export async function entitledAccount(stack: TestStack, options: { platformAdmin?: boolean } = {}): Promise<Account> {
  const account = await createAccount(stack, { platformAdmin: options.platformAdmin });
  await setSubscription(stack, account.tenantId, { tier: 'enterprise', addons: [...moduleKeys] });
  return account;
}

/** Runs `work` over `items`, at most `concurrency` at a time. */
export async function inPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
