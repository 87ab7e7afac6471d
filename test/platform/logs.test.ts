import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';

/** Logs: readable on a developer's terminal, JSON for collectors, and no stack traces for expected failures. */
describe('logs', () => {
  const run = (env: string) =>
    promisify(execFile)(process.execPath, [
      require.resolve('tsx/cli'),
      '-e',
      `process.stdout.isTTY = true; const { createLogger } = require('./lib/logger'); createLogger({ NODE_ENV: '${env}', LOG_LEVEL: 'info' }).info({ roomId: 'r1' }, 'room opened');`,
    ]);

  it('are readable lines in development on a terminal, JSON otherwise', async () => {
    const [development, production] = await Promise.all([run('development'), run('production')]);
    expect(development.stdout).toMatch(/INFO.*room opened/);
    expect(development.stdout).toMatch(/roomId.*: "r1"/);
    expect(() => JSON.parse(development.stdout)).toThrow();
    expect(JSON.parse(production.stdout)).toMatchObject({ level: 30, msg: 'room opened', roomId: 'r1' });
  });

  describe('of expected failures', () => {
    let stack: TestStack;
    const logs: string[] = [];
    beforeAll(async () => {
      stack = await startStack({ workers: false, logs, env: { LOG_LEVEL: 'info' } });
    });
    afterAll(() => stack.close());

    it('carry no stack trace: 4xx answers and a dependency down (503)', async () => {
      expect((await stack.http.get('/nope')).status).toBe(404);
      expect((await stack.http.get('/users/me').set('Authorization', 'Bearer nonsense')).status).toBe(401);
      expect((await stack.http.post('/auth/login').send({ email: 'not an address' })).status).toBe(400);
      const account = await createAccount(stack);
      const down = await startStack({
        sharing: stack,
        workers: false,
        logs,
        env: { REDIS_URL: 'redis://127.0.0.1:1' },
      });
      try {
        const res = await down.http.get('/users/me').set(account.auth);
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('dependency_unavailable');
      } finally {
        await down.close();
      }
      const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.find((l) => l.msg === 'dependency unavailable')).toMatchObject({
        level: 40,
        err: expect.stringMatching(/MaxRetriesPerRequestError|Connection is closed|Stream isn't writeable/),
      });
      expect(
        lines.filter((l) => l.msg === 'request completed').map((l) => (l.res as { statusCode: number }).statusCode),
      ).toEqual(expect.arrayContaining([404, 401, 400]));
      expect(logs.filter((l) => l.includes('"stack"'))).toEqual([]);
    });
  });
});
