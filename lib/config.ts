import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { bool, cleanEnv, num, port, str, url, EnvMissingError } from 'envalid';

/**
 * Every environment variable the suite reads, parsed and validated once at start (envalid).
 * `devDefault` values apply outside production only: with NODE_ENV=production a missing secret stops the
 * process with a message naming the variable. The README's configuration table mirrors this list.
 */
const spec = {
  NODE_ENV: str({ choices: ['development', 'test', 'production'], default: 'development' }),
  PORT: port({ default: 3000, desc: 'HTTP port of the web dyno' }),
  PUBLIC_URL: url({ desc: 'Public base URL, used in mailed links and storage addresses' }),
  APP_URL: str({ default: '', desc: 'Front-end base URL used in mailed links (defaults to PUBLIC_URL)' }),
  DATABASE_URL: url({ devDefault: 'postgres://postgres@127.0.0.1:5432/platform' }),
  DATABASE_POOL_MAX: num({ default: 10 }),
  REDIS_URL: url({ devDefault: 'redis://127.0.0.1:6379' }),
  REDIS_NAMESPACE: str({ default: 'ps', desc: 'Prefix of every Redis key, queue and channel of this deployment' }),
  JWT_SECRET: str({ desc: 'Shared HMAC secret of access tokens (>= 32 chars)' }),
  ACCESS_TOKEN_TTL_SECONDS: num({ default: 900 }),
  REFRESH_TOKEN_TTL_DAYS: num({ default: 30 }),
  INTERNAL_SECRET: str({ default: '', desc: 'X-Internal-Secret of machine-to-machine routes; unset refuses them all' }),
  CORS_ORIGINS: str({ default: '', desc: 'Comma-separated browser origins allowed by CORS' }),
  TRUST_PROXY: str({ default: 'loopback', desc: 'Express trust proxy setting (Heroku: 1)' }),
  LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
  METRICS_TOKEN: str({ default: '', desc: 'Bearer token required by /metrics when set' }),
  RATE_LIMIT_AUTH_PER_MINUTE: num({ default: 10, desc: 'Login / password-reset attempts per IP and per account' }),
  RATE_LIMIT_ANON_PER_MINUTE: num({ default: 120, desc: 'Requests per IP on anonymous routes' }),
  S3_ENDPOINT: str({ default: '', desc: 'MinIO/S3 endpoint URL; unset selects the local storage adapter' }),
  S3_ACCESS_KEY: str({ default: '' }),
  S3_SECRET_KEY: str({ default: '' }),
  S3_BUCKET: str({ default: 'platform' }),
  S3_REGION: str({ default: 'us-east-1' }),
  STORAGE_DIR: str({ default: '.data/storage', desc: 'Root of the local storage adapter' }),
  SMTP_URL: str({ default: '', desc: 'SMTP server for mail; unset keeps mails in the outbox table' }),
  MAIL_FROM: str({ default: 'Platform Suite <no-reply@localhost>' }),
  STRIPE_SECRET_KEY: str({ default: '' }),
  STRIPE_WEBHOOK_SECRET: str({ default: '' }),
  STRIPE_API_URL: str({ default: '', desc: 'Override of the Stripe API address (tests, stripe-mock)' }),
  OPENAI_API_KEY: str({ default: '' }),
  OPENAI_BASE_URL: str({ default: '', desc: 'Any OpenAI-compatible server' }),
  OPENAI_MODEL: str({ default: 'gpt-4o-mini' }),
  HUB_URL: str({ default: '', desc: 'Real-time hub; unset skips notifications' }),
  VR_WEBHOOK_SECRET: str({ default: '' }),
  PRESENCE_TTL_SECONDS: num({ default: 60 }),
  TRIAL_DAYS: num({ default: 14 }),
  ENTITLEMENT_CACHE_TTL_SECONDS: num({ default: 300 }),
  JOB_RETRY_DELAY_MS: num({ default: 0, desc: 'Overrides the base delay of every queue\'s exponential retry backoff (0 keeps each queue\'s own)' }),
  WORKER_CONCURRENCY: num({ default: 8, desc: 'Concurrent jobs per queue in a worker dyno' }),
  ADMIN_EMAIL: str({ default: '', desc: 'Creates this platform administrator at start when missing' }),
  ADMIN_PASSWORD: str({ default: '' }),
  RUN_MIGRATIONS: bool({ default: false, desc: 'Migrate at start (npm start sets it)' }),
};

export type Config = ReturnType<typeof parse> & { storageDriver: 's3' | 'local'; production: boolean };

function parse(env: Record<string, string | undefined>) {
  return cleanEnv(env, spec, {
    reporter: ({ errors }) => {
      const names = Object.entries(errors).map(([name, err]) =>
        err instanceof EnvMissingError ? `${name} is required` : `${name}: ${(err as Error).message}`,
      );
      if (names.length) throw new ConfigError(`Invalid configuration: ${names.join('; ')}`);
    },
  });
}

export class ConfigError extends Error {}

/** Where a generated development secret is kept, so tokens survive restarts of `npm start`. */
const devSecretFile = resolve('.data', 'jwt-secret');

function devSecret(): string {
  if (existsSync(devSecretFile)) return readFileSync(devSecretFile, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(dirname(devSecretFile), { recursive: true });
  writeFileSync(devSecretFile, secret, { mode: 0o600 });
  return secret;
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const env: Record<string, string | undefined> = { NODE_ENV: 'development', ...source };
  const production = env.NODE_ENV === 'production';
  if (!production) {
    env.JWT_SECRET ||= devSecret();
    env.PUBLIC_URL ||= `http://localhost:${env.PORT || 3000}`;
  }
  const parsed = parse(env);
  if (parsed.JWT_SECRET.length < 32) throw new ConfigError('Invalid configuration: JWT_SECRET must be at least 32 characters');
  return Object.freeze({ ...parsed, storageDriver: parsed.S3_ENDPOINT ? 's3' : 'local', production }) as Config;
}
