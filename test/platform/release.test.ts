import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { User } from '../../entities/identity/user';
import { startStack, type TestStack } from '../support/stack';

const run = promisify(execFile);

/** The Procfile's release phase (bin/migrate.ts) applies migrations and creates or promotes ADMIN_EMAIL. */
describe('release phase', () => {
  // Each release is a tsx process compiling bin/migrate.ts: seconds on a loaded machine.
  jest.setTimeout(90_000);
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
  });
  afterAll(() => stack.close());

  const release = (env: Record<string, string>) =>
    run(process.execPath, [require.resolve('tsx/cli'), 'bin/migrate.ts'], { env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: stack.env.DATABASE_URL, ...env } });

  it('creates the platform administrator of ADMIN_EMAIL, who can sign in; a second release changes nothing', async () => {
    const admin = { ADMIN_EMAIL: 'Release.Admin@example.test', ADMIN_PASSWORD: 'a long release passphrase' };
    expect((await release(admin)).stdout).toMatch(/database is up to date\ncreated platform administrator Release\.Admin@example\.test/);
    const login = await stack.http.post('/auth/login').send({ email: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }).expect(200);
    await stack.http.get('/admin/stats/overview').set('Authorization', `Bearer ${login.body.accessToken}`).expect(200);

    expect((await release({ ...admin, ADMIN_PASSWORD: 'another long passphrase' })).stdout).toMatch(/is a platform administrator/);
    expect(await stack.services.orm.em.fork().count(User, { email: 'release.admin@example.test' })).toBe(1);
    await stack.http.post('/auth/login').send({ email: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }).expect(200);
  });

  it('promotes an existing account without touching its password', async () => {
    await stack.http.post('/auth/register').send({ email: 'existing@example.test', password: 'the owner passphrase', displayName: 'Existing' }).expect(202);
    await release({ ADMIN_EMAIL: 'existing@example.test', ADMIN_PASSWORD: 'whatever passphrase' });
    const user = await stack.services.orm.em.fork().findOneOrFail(User, { email: 'existing@example.test' });
    expect(user.isPlatformAdmin).toBe(true);
    await stack.http.post('/auth/login').send({ email: 'existing@example.test', password: 'the owner passphrase' }).expect(200);
  });
});
