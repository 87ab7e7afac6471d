import { spawnSync } from 'node:child_process';
import { ConfigError, loadConfig } from '../../lib/config';
import { scaled } from '../support/timeScale';

const productionEnv = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
  REDIS_URL: 'redis://127.0.0.1:6379',
  JWT_SECRET: 'a-production-secret-that-is-long-enough-000000',
  PUBLIC_URL: 'https://api.example.com',
};

describe('configuration', () => {
  it('has safe local defaults outside production', () => {
    const config = loadConfig({ NODE_ENV: 'development' });
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/platform');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(config.storageDriver).toBe('local');
    // The generated secret is kept, so tokens survive a restart.
    expect(loadConfig({ NODE_ENV: 'development' }).JWT_SECRET).toBe(config.JWT_SECRET);
  });

  it.each(['JWT_SECRET', 'DATABASE_URL', 'REDIS_URL', 'PUBLIC_URL'])(
    'refuses to start in production without %s, naming it',
    (name) => {
      const env: Record<string, string | undefined> = { ...productionEnv, [name]: undefined };
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(new RegExp(`${name} is required`));
    },
  );

  it('refuses a short JWT secret and invalid values', () => {
    expect(() => loadConfig({ ...productionEnv, JWT_SECRET: 'short' })).toThrow(/JWT_SECRET must be at least 32/);
    expect(() => loadConfig({ ...productionEnv, PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ ...productionEnv, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('refuses passkey origins no browser would run a ceremony on, at start', () => {
    const env = { ...productionEnv, WEBAUTHN_RP_ID: 'example.com' };
    const origins = (WEBAUTHN_ORIGINS: string) => () => loadConfig({ ...env, WEBAUTHN_ORIGINS });
    expect(origins('https://app.example.com, https://example.com')).not.toThrow();
    expect(origins('http://localhost:5173')).toThrow(/not on the relying party example.com/);
    expect(origins('app.example.com')).toThrow(/WEBAUTHN_ORIGINS must be origins/);
    expect(origins('http://app.example.com')).toThrow(/must use https/);
    expect(origins('https://example.com.evil.test')).toThrow(/not on the relying party/);
    expect(() =>
      loadConfig({
        NODE_ENV: 'development',
        PUBLIC_URL: 'http://localhost:3000',
        WEBAUTHN_ORIGINS: 'http://localhost:5173',
      }),
    ).not.toThrow();
  });

  it('selects the s3 adapter when S3_ENDPOINT is set', () => {
    expect(loadConfig({ ...productionEnv, S3_ENDPOINT: 'https://s3.example.com' }).storageDriver).toBe('s3');
  });

  it(
    'stops the web process with a message naming the missing variable',
    () => {
      const { JWT_SECRET: _omit, ...env } = productionEnv;
      const run = spawnSync(process.execPath, [require.resolve('tsx/cli'), 'api/server.ts'], {
        env: { PATH: process.env.PATH, ...env },
        encoding: 'utf8',
        timeout: 90_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/JWT_SECRET is required/);
    },
    scaled(120_000),
  );
});
