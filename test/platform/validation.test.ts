import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/** Bad input at the edge always gets a clear 4xx problem and changes nothing (exercised on PUT /users/me). */
describe('request validation', () => {
  let stack: TestStack;
  let account: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    account = await createAccount(stack, { displayName: 'Ada' });
  });
  afterAll(() => stack.close());

  const put = () => stack.http.put('/users/me').set(account.auth);
  const unchanged = async () => expect((await stack.http.get('/users/me').set(account.auth)).body.displayName).toBe('Ada');

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
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['displayName', 'locale', 'timezone']);
    await unchanged();
  });

  it('refuses a non-object body', async () => {
    const res = await put().send([{ displayName: 'x' }]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'body', message: 'must be an object' }] });
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
});
