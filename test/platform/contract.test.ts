import type { WebSocket } from 'ws';
import { Contract, socketContract, takeContractViolations, type Document } from '../../api/http/contract';
import { OpenApiRegistry } from '../../api/http/openapi';
import { Reply } from '../../api/http/routes';
import { apiModules } from '../../api/modules';
import { HealthView } from '../../api/system/views';
import { assistantChannel } from '../../api/vr/assistantChannel';
import { startStack, type TestStack } from '../support/stack';
import { publishedDocument, requestProblem } from '../support/openapi';
import { eventually } from '../support/wait';

/** A route that answers what its declaration says, or breaks it on purpose, to see the check catch it. */
apiModules.push(({ routes }) => {
  routes('Contract probe').get(
    '/contract-probe/:answer',
    { summary: 'Contract probe', access: 'public', response: HealthView },
    ({ req, res }) => {
      const view: HealthView = { status: 'ok', version: '1', uptimeSeconds: 1 };
      if (req.params.answer === 'extra') return { ...view, secret: 'x' };
      if (req.params.answer === 'null') return { ...view, version: null };
      if (req.params.answer === 'status') return new Reply(202, view);
      // Written, not given to res.json (a stream, an export): only its media type can be checked.
      if (req.params.answer === 'csv') return void res.type('text/csv').end('status\nok\n');
      return view;
    },
  );
  // A cacheable read: the router adds an ETag and answers 304 to a matching If-None-Match, dropping the body.
  routes('Contract probe').get(
    '/contract-probe-cached',
    { summary: 'Contract probe (304)', access: 'public', response: HealthView, alsoAnswers: { 304: 'Not modified' } },
    () => ({ status: 'ok', version: '1', uptimeSeconds: 1 }) satisfies HealthView,
  );
});

type Responses = Record<
  string,
  { description: string; content?: object; headers?: Record<string, { required?: boolean }> }
>;

/**
 * The contract check itself (api/http/contract.ts): in tests every answer is compared with /openapi.json and
 * every WebSocket frame with /asyncapi.json; a test during which one breaks them fails (test/support/contract.ts).
 */
describe('the published contract, checked in tests', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('lets a true answer pass and records the ones that break the document', async () => {
    expect((await stack.http.get('/contract-probe/ok')).status).toBe(200);
    await stack.http.get('/nope');
    expect(takeContractViolations()).toEqual([]);

    await stack.http.get('/contract-probe/extra');
    await stack.http.get('/contract-probe/null');
    await stack.http.get('/contract-probe/status');
    await stack.http.get('/contract-probe/csv');
    const violations: string[] = [];
    await eventually(() => violations.push(...takeContractViolations()) >= 4, { what: 'four violations' });
    expect(violations).toEqual([
      'GET /contract-probe/extra answered 200: body must NOT have additional properties (secret)',
      'GET /contract-probe/null answered 200: body/version must be string',
      expect.stringMatching(/^GET \/contract-probe\/status answered 202: status 202 is not declared/),
      'GET /contract-probe/csv answered 200: a text/csv body is not declared for 200 (declared: application/json)',
    ]);
  });

  it('declares a 304 without a body (with its ETag) and checks a 304 answer as one without a body', async () => {
    const first = await stack.http.get('/contract-probe-cached');
    expect(first.status).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await stack.http.get('/contract-probe-cached').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(takeContractViolations()).toEqual([]);
    // A read that does not declare 304 carries no ETag and never answers one.
    const plain = await stack.http.get('/contract-probe/ok');
    expect(plain.headers.etag).toBeUndefined();
    expect((await stack.http.get('/contract-probe/ok').set('If-None-Match', etag)).status).toBe(200);

    const { doc } = await publishedDocument(stack);
    const probe = doc.paths['/contract-probe-cached'].get as unknown as { parameters: object[]; responses: Responses };
    expect(probe.responses['304']).toEqual({
      description: 'Not modified',
      headers: { ETag: { description: expect.any(String), schema: { type: 'string' }, required: true } },
    });
    expect(probe.responses['200']).toMatchObject({
      content: { 'application/json': expect.any(Object) },
      headers: { ETag: expect.any(Object) },
    });
    expect(probe.parameters).toContainEqual(
      expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
    );
    // No answer without a body is declared with one, on any route (the public knowledge reads' 304 included).
    const withBody = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) =>
        Object.entries(op.responses as Responses)
          .filter(([status, r]) => /^(1\d\d|204|205|304)$/.test(status) && r.content)
          .map(([status]) => `${method} ${path} ${status}`),
      ),
    );
    expect(withBody).toEqual([]);
    expect((doc.paths['/api/knowledge/public/spaces'].get.responses as Responses)['304']).not.toHaveProperty('content');
  });

  it('records a bodiless status declared with a body, an answer with one, and a required header not sent', () => {
    const problem = { content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
    const doc = {
      paths: {
        '/cached': {
          get: {
            responses: {
              '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
              '304': { description: 'Not modified', headers: { ETag: { required: true } } },
              '404': { description: 'gone', ...problem },
            },
          },
        },
        '/legacy': {
          get: {
            responses: {
              '304': { description: 'Not modified', content: { 'application/json': { schema: { type: 'object' } } } },
            },
          },
        },
        '/empty': { delete: { responses: { '204': { description: 'No content' } } } },
      },
      components: { schemas: { Problem: { type: 'object' } } },
    } as unknown as Document;
    const contract = new Contract(doc);
    const on = (path: string, method = 'GET') => ({ route: { path }, method }) as Parameters<Contract['check']>[0];
    const headers = (h: Record<string, string>) => (name: string) => h[name.toLowerCase()];
    // Express gave the 200's body to res.json, then answered 304 and dropped it (and its Content-Type).
    expect(contract.check(on('/cached'), 304, headers({ etag: 'W/"1"' }), { value: { a: 1 } })).toBeUndefined();
    expect(contract.check(on('/cached'), 304, headers({}), undefined)).toBe('the declared header ETag is missing');
    expect(contract.check(on('/legacy'), 304, headers({}), undefined)).toBe(
      'a 304 never has a body, but one is declared (application/json)',
    );
    expect(contract.check(on('/empty', 'DELETE'), 204, headers({}), undefined)).toBeUndefined();
    expect(
      contract.check(on('/empty', 'DELETE'), 204, headers({ 'content-type': 'application/json' }), undefined),
    ).toBe('a 204 never has a body, but the answer has a Content-Type (application/json)');
  });

  it('refuses to document a body for a status that has none', () => {
    const registry = new OpenApiRegistry({ title: 't', version: '1', description: 'd' });
    registry.add('delete', '/things/:id', { summary: 'Delete', access: 'public', status: 204, response: HealthView });
    expect(() => registry.document('http://localhost')).toThrow(
      'DELETE /things/:id: a 204 has no body, so no response to document',
    );
  });

  it('declares a signed raw body (webhooks) as a JSON object, and a streamed one as documented', async () => {
    const registry = new OpenApiRegistry({ title: 't', version: '1', description: 'd' });
    registry.add('post', '/hook', {
      summary: 'Hook',
      access: 'public',
      rawBody: { type: '*/*' },
      response: HealthView,
    });
    registry.add('put', '/blob/*key', {
      summary: 'Blob',
      access: 'public',
      status: 204,
      requestBody: { description: 'Any bytes', content: { '*/*': {} } },
    });
    const paths = registry.document('http://localhost').paths as Record<
      string,
      Record<string, { requestBody: unknown }>
    >;
    expect(paths['/hook'].post.requestBody).toEqual({
      required: true,
      description: expect.stringMatching(/signature is computed over the raw bytes/),
      content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
      'x-raw-body': true,
    });
    expect(paths['/blob/{key}'].put.requestBody).toEqual({
      required: true,
      description: 'Any bytes',
      content: { '*/*': {} },
    });

    // The real webhooks: a JSON delivery is what the document takes (not a binary string), and the server takes it.
    const event = { id: 'evt_contract', object: 'event', type: 'ping', data: { object: {} } };
    for (const [method, path] of [
      ['post', '/api/webhooks/stripe'],
      ['post', '/api/work/github/webhook'],
    ]) {
      const declared = (await publishedDocument(stack)).doc.paths[path][method].requestBody as {
        description: string;
        content: object;
      };
      expect(declared).toEqual({
        required: true,
        description: expect.stringMatching(/raw bytes/),
        content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
        'x-raw-body': true,
      });
      expect(await requestProblem(stack, method, path, event, 'application/json; charset=utf-8')).toBeUndefined();
      expect(await requestProblem(stack, method, path, 'a string')).toBe('body must be object');
    }
    // Unsigned: a silent 200, nothing stored (the answer is checked against the document as always).
    const res = await stack.http
      .post('/api/webhooks/stripe')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(event));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ received: false });
    const github = await stack.http
      .post('/api/work/github/webhook')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(event));
    expect(github.status).toBe(200);
    expect(github.body).toEqual({ received: false });
  });

  it('declares what every object holds: properties, additionalProperties or a composition, never a bare {type: object}', async () => {
    // openapi-typescript makes a bare object `Record<string, never>`: a strict typed client could send nothing in it.
    const bare: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== 'object' || node === null) return;
      const s = node as Record<string, unknown>;
      const shaped = [
        'properties',
        'additionalProperties',
        'patternProperties',
        'oneOf',
        'anyOf',
        'allOf',
        '$ref',
      ].some((k) => s[k] !== undefined);
      if ([s.type].flat().includes('object') && !shaped) bare.push(at);
      for (const [key, value] of Object.entries(s))
        walk(value, `${at}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    walk((await publishedDocument(stack)).doc, '#');
    expect(bare).toEqual([]);
  });

  it('checks the frames a WebSocket endpoint sends against its AsyncAPI messages', () => {
    const sent: unknown[] = [];
    const socket = { send: (data: unknown) => sent.push(data) } as unknown as WebSocket;
    socketContract(socket, '/assistant', assistantChannel);
    socket.send(JSON.stringify({ type: 'delta', text: 'Look at ' }));
    socket.send(JSON.stringify({ type: 'action', name: 'highlight_object', args: '{"objectName":"red valve"}' }));
    expect(takeContractViolations()).toEqual([]);
    socket.send(JSON.stringify({ type: 'delta', text: 1 }));
    socket.send(JSON.stringify({ type: 'shout' }));
    expect(takeContractViolations()).toHaveLength(2);
    expect(sent).toHaveLength(4);
  });
});
