import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import SwaggerParser from '@apidevtools/swagger-parser';
import { startStack, type TestStack } from '../support/stack';

describe('system routes', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  it('answers /health without a token', async () => {
    const res = await stack.http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('answers /ready when PostgreSQL and Redis are up', async () => {
    const res = await stack.http.get('/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ready', checks: { postgres: 'ok', redis: 'ok' } });
  });

  it('answers /ready 503 when Redis points at a closed port', async () => {
    const broken = await startStack({ sharing: stack, workers: false, env: { REDIS_URL: 'redis://127.0.0.1:1' } });
    try {
      const res = await broken.http.get('/ready');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 503, code: 'not_ready', checks: { postgres: 'ok' } });
      expect(res.body.checks.redis).not.toBe('ok');
    } finally {
      await broken.close();
    }
  });

  it('serves a valid OpenAPI 3.1 description and the docs page', async () => {
    const res = await stack.http.get('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(res.body))).resolves.toBeTruthy();
    // Every operation is documented with a summary and its problems.
    for (const [path, item] of Object.entries(
      res.body.paths as Record<string, Record<string, { summary?: string; responses: object }>>,
    )) {
      for (const [method, op] of Object.entries(item)) {
        expect(`${method} ${path}: ${op.summary ? 'ok' : 'missing summary'}`).toBe(`${method} ${path}: ok`);
      }
    }
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/health', '/ready', '/metrics']));
    const docs = await stack.http.get('/docs/');
    expect(docs.status).toBe(200);
    expect(docs.text).toMatch(/swagger/i);
  });

  it("passes Redocly's recommended ruleset with 0 errors (npm run lint:openapi)", async () => {
    const file = join(tmpdir(), `openapi-${process.pid}.json`);
    writeFileSync(file, (await stack.http.get('/openapi.json')).text);
    // The Redocly CLI runs in its own process, as `npm run lint:openapi` does.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [require.resolve('tsx/cli'), 'bin/lint-openapi.ts', file],
      { maxBuffer: 64 * 1024 ** 2 },
    );
    expect(stdout).toMatch(/Redocly recommended: 0 errors/);
    // Query parameters written as one string (comma-separated lists) carry no array keywords.
    expect(stdout).not.toMatch(/no-schema-type-mismatch/);
    expect(stdout).toMatch(/known no-identical-paths #\/paths\/~1api~1promo~1\{id\}/);
    // Date fields are documented as dates (not a oneOf of date and date-time), /metrics declares its 401.
    expect(stdout).not.toMatch(/no-illogical-composition-keywords/);
    expect(stdout).not.toMatch(/operation-4xx-response #\/paths\/~1metrics\//);
  });

  it('answers GET / with an index: name, version and where the documentation is', async () => {
    const res = await stack.http.get('/');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'platform-suite', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(res.body.links).toEqual({
      docs: `${stack.url}/docs`,
      openapi: `${stack.url}/openapi.json`,
      asyncapi: `${stack.url}/asyncapi.json`,
      health: `${stack.url}/health`,
      ready: `${stack.url}/ready`,
    });
  });

  it('exposes Prometheus metrics', async () => {
    const res = await stack.http.get('/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/http_request_duration_seconds_bucket/);
  });

  it('answers /metrics 401 without the token when METRICS_TOKEN is set, as declared', async () => {
    const guarded = await startStack({
      sharing: stack,
      workers: false,
      env: { METRICS_TOKEN: 'metrics-token-for-tests' },
    });
    try {
      for (const auth of [undefined, 'Bearer wrong-token', 'metrics-token-for-tests']) {
        const res = auth
          ? await guarded.http.get('/metrics').set('Authorization', auth)
          : await guarded.http.get('/metrics');
        expect(res.status).toBe(401);
        expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 401, code: 'token_invalid' });
      }
      const ok = await guarded.http.get('/metrics').set('Authorization', 'Bearer metrics-token-for-tests');
      expect(ok.status).toBe(200);
      expect(ok.text).toMatch(/http_request_duration_seconds_bucket/);
    } finally {
      await guarded.close();
    }
    const doc = (await stack.http.get('/openapi.json')).body;
    expect(doc.paths['/metrics'].get.security).toEqual([{}, { metricsToken: [] }]);
    expect(doc.paths['/metrics'].get.responses['401'].content).toHaveProperty(['application/problem+json']);
    expect(doc.components.securitySchemes.metricsToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('answers unknown routes with a 404 problem', async () => {
    const res = await stack.http.get('/nope');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 404, code: 'route_not_found', type: '/problems/route_not_found' });
  });
});
