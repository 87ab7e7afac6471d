import { startStack, type TestStack } from '../support/stack';

type Schema = { $ref?: string; properties?: Record<string, unknown> };
type Operation = {
  security?: unknown[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string }>;
};

/**
 * Every anonymous operation that takes an e-mail address in its body (sign-up, links, bookings, subscriptions: each
 * may mail the address a stranger names) is rate limited per that target, not only per client address: its 429
 * names a limit counted by something else than IP. Read from /openapi.json, so a new route is covered as soon as it
 * is declared. (What reaches one inbox is capped once more by the mail worker: MAIL_RECIPIENT_CAP_PER_HOUR.)
 */
describe('guard: anonymous routes naming an e-mail address are limited per target', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('declares a per-target rate limit on each of them', async () => {
    const doc = (await stack.http.get('/openapi.json')).body as {
      paths: Record<string, Record<string, Operation>>;
      components: { schemas: Record<string, Schema> };
    };
    const resolve = (schema: Schema | undefined) =>
      schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop()!] : schema;
    const checked: string[] = [];
    const unlimited: string[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const anonymous = Array.isArray(op.security) && op.security.length === 0;
        const fields = Object.keys(resolve(op.requestBody?.content?.['application/json']?.schema)?.properties ?? {});
        if (!anonymous || !fields.some((f) => /e-?mail/i.test(f))) continue;
        const key = `${method.toUpperCase()} ${path}`;
        checked.push(key);
        const limits = op.responses['429']?.description ?? '';
        if (![...limits.matchAll(/ by ([^,]+)/g)].some((m) => m[1].trim() !== 'IP'))
          unlimited.push(`${key}: ${limits || 'no 429'}`);
      }
    }
    expect(checked).toEqual(
      expect.arrayContaining([
        'POST /api/public/stores/{publicSlug}/bookings',
        'POST /api/public/stores/{publicSlug}/waitlist',
        'POST /api/knowledge/public/spaces/{slug}/subscribe',
        'POST /api/public/auth/request-link',
      ]),
    );
    expect(unlimited).toEqual([]);
  });
});
