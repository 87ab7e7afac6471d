import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { User } from '../../entities/identity/user';
import { startStack, type TestStack } from '../support/stack';
import { scaled } from '../support/timeScale';

const run = promisify(execFile);

/** The Procfile's release phase (bin/migrate.ts) applies migrations and makes ADMIN_EMAIL a platform administrator. */
describe('release phase', () => {
  // Each release is a tsx process compiling bin/migrate.ts: seconds on a loaded machine.
  jest.setTimeout(scaled(90_000));
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  const release = (env: Record<string, string>) =>
    run(process.execPath, [require.resolve('tsx/cli'), 'bin/migrate.ts'], {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: stack.env.DATABASE_URL,
        REDIS_URL: stack.env.REDIS_URL,
        REDIS_NAMESPACE: stack.env.REDIS_NAMESPACE,
        ...env,
      },
    });

  it('creates the platform administrator of ADMIN_EMAIL, who can sign in; a second release changes nothing', async () => {
    const admin = { ADMIN_EMAIL: 'Release.Admin@example.test', ADMIN_PASSWORD: 'a long release passphrase' };
    expect((await release(admin)).stdout).toMatch(
      /database is up to date\ncreated platform administrator Release\.Admin@example\.test/,
    );
    const login = await stack.http
      .post('/auth/login')
      .send({ email: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD })
      .expect(200);
    await stack.http.get('/admin/stats/overview').set('Authorization', `Bearer ${login.body.accessToken}`).expect(200);

    expect((await release({ ...admin, ADMIN_PASSWORD: 'another long passphrase' })).stdout).toMatch(
      /is already a platform administrator/,
    );
    expect(await stack.services.orm.em.fork().count(User, { email: 'release.admin@example.test' })).toBe(1);
    await stack.http.post('/auth/login').send({ email: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }).expect(200);
  });

  it('takes over an unconfirmed account of ADMIN_EMAIL (anyone may have registered it), and refuses a confirmed one with another password', async () => {
    await stack.http
      .post('/auth/register')
      .send({ email: 'existing@example.test', password: 'the squatter passphrase', displayName: 'Existing' })
      .expect(202);
    expect(
      (await release({ ADMIN_EMAIL: 'existing@example.test', ADMIN_PASSWORD: 'the operator passphrase' })).stdout,
    ).toMatch(/taken over as platform administrator/);
    const user = await stack.services.orm.em.fork().findOneOrFail(User, { email: 'existing@example.test' });
    expect(user).toMatchObject({ isPlatformAdmin: true, emailConfirmedAt: expect.any(Date) });
    await stack.http
      .post('/auth/login')
      .send({ email: 'existing@example.test', password: 'the squatter passphrase' })
      .expect(401);
    await stack.http
      .post('/auth/login')
      .send({ email: 'existing@example.test', password: 'the operator passphrase' })
      .expect(200);

    const registered = { email: 'confirmed@example.test', password: 'the owner passphrase', displayName: 'Confirmed' };
    await stack.http.post('/auth/register').send(registered).expect(202);
    await stack.services.orm.em
      .fork()
      .nativeUpdate(User, { email: registered.email }, { emailConfirmedAt: new Date() });
    const refused = await release({ ADMIN_EMAIL: registered.email, ADMIN_PASSWORD: 'whatever passphrase' }).catch(
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /Platform administrator refused: confirmed@example.test belongs to an account with a confirmed address and a different password/,
      ),
    });
    expect(await stack.services.orm.em.fork().findOneOrFail(User, { email: registered.email })).toMatchObject({
      isPlatformAdmin: false,
    });
    await stack.http.post('/auth/login').send({ email: registered.email, password: registered.password }).expect(200);
  });
});
