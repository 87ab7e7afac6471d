import { createAccount, type Account } from '../support/factories';
import { expectFieldErrors, expectProblem, relaxedLimits } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';

describe('GET and PUT /users/me', () => {
  let stack: TestStack;
  let a: Account;
  beforeAll(async () => {
    stack = await startStack({ env: relaxedLimits, workers: false });
    a = await createAccount(stack);
  });
  afterAll(() => stack.close());

  it('shows and updates my profile', async () => {
    const res = await stack.http
      .put('/users/me')
      .set(a.auth)
      .send({ displayName: '  Ada L. ', locale: 'fr-FR', timezone: 'Europe/Paris' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: a.user.id,
      email: a.email,
      displayName: 'Ada L.',
      locale: 'fr-FR',
      timezone: 'Europe/Paris',
    });
    expect((await stack.http.get('/users/me').set(a.auth)).body).toEqual(res.body);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    expectFieldErrors(await stack.http.put('/users/me').set(a.auth).send({ timezone: 'Mars/Olympus' }), 'timezone');
    expectFieldErrors(await stack.http.put('/users/me').set(a.auth).send({ locale: 'french' }), 'locale');
    expectFieldErrors(await stack.http.put('/users/me').set(a.auth).send({ displayName: '' }), 'displayName');
    expectFieldErrors(await stack.http.put('/users/me').set(a.auth).send({ email: 'new@example.test' }), 'email');
    expectFieldErrors(await stack.http.put('/users/me').set(a.auth).send({ isPlatformAdmin: true }), 'isPlatformAdmin');
    expect((await stack.http.get('/users/me').set(a.auth)).body).toMatchObject({
      email: a.email,
      isPlatformAdmin: false,
    });
    expectProblem(await stack.http.put('/users/me').send({ locale: 'en' }), 401, 'token_missing');
  });
});
