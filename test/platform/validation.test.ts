import { randomUUID } from 'node:crypto';
import { createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

const nested = (depth: number, leaf = '1') => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;

/** Bad input at the edge always gets a clear 4xx problem and changes nothing (exercised on PUT /users/me). */
describe('request validation', () => {
  let stack: TestStack;
  let account: Account;
  let admin: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: relaxedLimits });
    account = await createAccount(stack, { displayName: 'Ada' });
    admin = await createAccount(stack, { platformAdmin: true });
  });
  afterAll(() => stack.close());

  const put = () => stack.http.put('/users/me').set(account.auth);
  const unchanged = async () =>
    expect((await stack.http.get('/users/me').set(account.auth)).body.displayName).toBe('Ada');

  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await put().set('Content-Type', 'application/json').send('{"displayName": "x",');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, code: 'malformed_json', title: 'Bad Request' });
    await unchanged();
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const res = await put().send({ displayName: 'x'.repeat(200_000) });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ status: 413, code: 'payload_too_large' });
    await unchanged();
  });

  it('refuses unknown fields with field-level errors', async () => {
    const res = await put().send({ displayName: 'Bob', isPlatformAdmin: true });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ field: 'isPlatformAdmin', message: 'should not exist' }]);
    await unchanged();
  });

  it('lists every invalid field', async () => {
    const res = await put().send({ displayName: '', locale: 'english', timezone: 'Mars/Olympus' });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'displayName',
      'locale',
      'timezone',
    ]);
    await unchanged();
  });

  it('refuses a non-object body', async () => {
    const res = await put().send([{ displayName: 'x' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ field: 'body', message: 'must be an object' }],
    });
  });

  it('refuses another media type with 415', async () => {
    const res = await put().set('Content-Type', 'text/plain').send('displayName=x');
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('applies a valid change', async () => {
    const res = await put().send({ displayName: 'Ada L.', timezone: 'Europe/Paris' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: 'Ada L.', timezone: 'Europe/Paris' });
    await put().send({ displayName: 'Ada' });
  });

  describe('nesting depth (at most 32 levels, checked before parsing)', () => {
    const raw = (body: string) => put().set('Content-Type', 'application/json').send(body);

    it('refuses 33 levels, and 5,000 or 300,000 levels (telemetry takes 2 MB), with 400 json_too_deep', async () => {
      const headset = await createAccount(stack, { tier: 'pro' });
      for (const depth of [33, 5000, 300_000]) {
        const res = await stack.http
          .post(`/sessions/${randomUUID()}/telemetry`)
          .set(headset.auth)
          .set('Content-Type', 'application/json')
          .send(`{"events":[${nested(depth - 2)}]}`);
        expectProblem(res, 400, 'json_too_deep');
      }
      expectProblem(await raw(`{"displayName":"x","more":${nested(32)}}`), 400, 'json_too_deep');
      await unchanged();
    });

    it('leaves 32 levels to validation, and brackets inside strings do not count', async () => {
      expectFieldErrors(await raw(`{"displayName":"x","more":${nested(31)}}`), 'more');
      const res = await raw(JSON.stringify({ displayName: `${'['.repeat(40)}Ada "quoted" \\${'{'.repeat(40)}` }));
      expect(res.status).toBe(200);
      await put().send({ displayName: 'Ada' });
    });
  });

  describe('text PostgreSQL cannot store (every field and query parameter, centrally)', () => {
    it('refuses NUL in a body field and in a query parameter', async () => {
      const res = await put().send({ displayName: 'a\u0000b' });
      expectFieldErrors(res, 'displayName');
      expect(res.body.errors[0].message).toMatch(/NUL/);
      expectFieldErrors(await stack.http.get('/admin/users?q=a%00b').set(admin.auth), 'q');
      await unchanged();
    });

    it('refuses lone surrogates, e-mails included, before any validator sees them', async () => {
      for (const path of ['/auth/login', '/auth/register', '/auth/forgot-password', '/auth/resend-confirmation']) {
        const res = await stack.http
          .post(path)
          .send({ email: 'a\ud800b@example.test', password: 'correct-horse-battery' });
        expectFieldErrors(res, 'email');
      }
      expectFieldErrors(await put().send({ displayName: 'x\udc00' }), 'displayName');
      // A well-formed pair (an emoji) is text like any other.
      expect((await put().send({ displayName: 'Ada \u{1F525}' })).status).toBe(200);
      await put().send({ displayName: 'Ada' });
    });
  });

  describe('null in optional fields', () => {
    it('is a 400 on fields that are not declared nullable', async () => {
      const res = await put().send({ displayName: null, locale: null, timezone: null });
      expect(res.body.errors).toEqual(
        ['displayName', 'locale', 'timezone'].map((field) => ({
          field,
          message: expect.stringMatching(/must not be null/),
        })),
      );
      await unchanged();
      expectFieldErrors(
        await stack.http.put(`/api/subscription/${account.tenantId}`).set(admin.auth).send({ status: null }),
        'status',
      );
      expectFieldErrors(await stack.http.put('/api/addons/vr').set(admin.auth).send({ name: null }), 'name');
    });

    it('clears a field declared nullable', async () => {
      const id = randomUUID();
      expect(
        (
          await stack.http
            .put(`/api/promo/${id}`)
            .set(admin.auth)
            .send({ code: 'NULLS1', percentOff: 10, maxRedemptions: 5 })
        ).status,
      ).toBe(201);
      const res = await stack.http
        .put(`/api/promo/${id}`)
        .set(admin.auth)
        .send({ code: 'NULLS1', percentOff: 10, maxRedemptions: null });
      expect(res.status).toBe(200);
      expect(res.body.maxRedemptions).toBeNull();
    });
  });

  describe('numbers fit their storage', () => {
    it('refuses a count beyond a PostgreSQL integer and a limit beyond 2^53', async () => {
      expectFieldErrors(
        await stack.http
          .put(`/api/promo/${randomUUID()}`)
          .set(admin.auth)
          .send({ code: 'BIG1', percentOff: 10, maxRedemptions: 3_000_000_000 }),
        'maxRedemptions',
      );
      const limits = { cloudQuotaBytes: 1e308, seats: 2 ** 31, vrRooms: 1 };
      expectFieldErrors(
        await stack.http
          .put('/api/entitlements/pro')
          .set(admin.auth)
          .send({ modules: ['vr'], limits }),
        'limits.cloudQuotaBytes',
        'limits.seats',
      );
    });
  });
});
