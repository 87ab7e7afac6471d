import { startStack, type TestStack } from '../support/stack';
import { createAccount, type Account } from '../support/factories';

type Schema = Record<string, unknown>;
interface Document {
  paths: Record<
    string,
    Record<string, { parameters?: { in: string }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>
  >;
  components: { schemas: Record<string, Schema> };
}

const patternOf = (pattern: string) => {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
};

/** What Swagger UI 5 generates for a schema: its first example, else enum, else a value from the format or the type. */
function sample(doc: Document, schema: Schema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return undefined;
  if (typeof schema.$ref === 'string')
    return sample(doc, doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')], depth + 1);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('default' in schema) return schema.default;
  if ('example' in schema) return schema.example;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const list of [schema.oneOf, schema.anyOf])
    if (Array.isArray(list)) return sample(doc, list.find((s: Schema) => s.type !== 'null') as Schema, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'object' || schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
      out[key] = sample(doc, property, depth + 1);
    return out;
  }
  if (type === 'array') return [sample(doc, schema.items as Schema, depth + 1)];
  if (type === 'integer' || type === 'number') return typeof schema.minimum === 'number' ? schema.minimum : 0;
  if (type === 'boolean') return true;
  if (type === 'string') {
    // Swagger UI's format samples (a pattern would come first: every one of a body has an example now).
    const formats: Record<string, string> = {
      uuid: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      email: 'user@example.com',
      'date-time': new Date().toISOString(),
      date: new Date().toISOString().slice(0, 10),
      uri: 'https://example.com/',
    };
    if (typeof schema.format === 'string' && formats[schema.format]) return formats[schema.format];
    let text = 'string';
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    while (text.length < min) text += text;
    return typeof schema.maxLength === 'number' || min
      ? text.slice(0, Math.max(min, Math.min(text.length, (schema.maxLength as number | undefined) ?? text.length)))
      : text;
  }
  return undefined;
}

describe('the API description as Swagger UI uses it', () => {
  let stack: TestStack;
  let owner: Account;
  let doc: Document;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'enterprise' });
    doc = (await stack.http.get('/openapi.json')).body as Document;
  });
  afterAll(() => stack.close());

  it('serves /openapi.json compressed, with an ETag that answers 304 when it matches', async () => {
    const res = await stack.http.get('/openapi.json').set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    const again = await stack.http.get('/openapi.json').set('If-None-Match', res.headers.etag);
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it("serves Swagger UI's assets and the AsyncAPI document compressed", async () => {
    for (const path of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/asyncapi.json']) {
      const res = await stack.http.get(path).set('Accept-Encoding', 'gzip');
      expect(`${path}: ${res.status} ${res.headers['content-encoding']}`).toBe(`${path}: 200 gzip`);
    }
  });

  it('gives every pattern-constrained string of a request body an example matching it', () => {
    const checked: string[] = [];
    const seen = new Set<Schema>();
    const visit = (schema: unknown, where: string): void => {
      if (!schema || typeof schema !== 'object' || seen.has(schema as Schema)) return;
      const s = schema as Schema;
      seen.add(s);
      if (typeof s.$ref === 'string')
        return visit(doc.components.schemas[s.$ref.replace('#/components/schemas/', '')], s.$ref);
      for (const [key, property] of Object.entries((s.properties ?? {}) as Record<string, unknown>))
        visit(property, `${where}.${key}`);
      visit(s.items, `${where}[]`);
      visit(s.additionalProperties, `${where}{}`);
      for (const list of [s.oneOf, s.anyOf, s.allOf]) if (Array.isArray(list)) for (const m of list) visit(m, where);
      if (typeof s.pattern !== 'string' || Array.isArray(s.enum)) return;
      const example = (s.examples as unknown[] | undefined)?.[0];
      const fits =
        typeof example === 'string' &&
        patternOf(s.pattern).test(example) &&
        example.length >= ((s.minLength as number) ?? 0) &&
        example.length <= ((s.maxLength as number) ?? Infinity);
      checked.push(`${where} ${s.pattern}: ${fits ? 'ok' : `example ${JSON.stringify(example)}`}`);
    };
    for (const byMethod of Object.values(doc.paths))
      for (const op of Object.values(byMethod))
        for (const media of Object.values(op.requestBody?.content ?? {})) visit(media.schema, 'body');
    expect(checked.length).toBeGreaterThan(50);
    expect(checked.filter((line) => !line.endsWith(': ok'))).toEqual([]);
  });

  it('accepts the generated body of a handful of POST operations as valid input', async () => {
    const operations = [
      '/auth/register',
      '/auth/reset-password',
      '/api/public/auth/request-link',
      '/api/rh/compliance/scan',
      '/api/customers',
      '/api/rdv/staff',
      '/api/invoices',
      '/rooms',
      '/api/knowledge/spaces',
    ];
    const refused: string[] = [];
    let tried = 0;
    for (const path of operations) {
      const op = doc.paths[path]?.post;
      const schema = op?.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      tried++;
      const res = await stack.http
        .post(path)
        .set(owner.auth)
        .send(sample(doc, schema) as object);
      const body = res.body as { code?: string; errors?: { field: string; message: string }[] };
      // An example id names no record of the organisation: refused as such, not for its format.
      const errors = (body.errors ?? []).filter((e) => !/not (a )?members? of this organisation/.test(e.message));
      if (res.status === 400 && body.code === 'validation_failed' && errors.length)
        refused.push(`${path}: ${JSON.stringify(errors)}`);
    }
    expect(tried).toBeGreaterThanOrEqual(6);
    expect(refused).toEqual([]);
  });
});
