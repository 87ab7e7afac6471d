import pino from 'pino';
import type { Config } from './config';

export type Logger = pino.Logger;

const ERROR_LEVEL = 50;
const CENSOR = '[redacted]';

/**
 * Names of query parameters whose value is a credential, matched case-insensitively on the decoded name: every
 * name containing token, secret, passw, signature, credential or key (access_token, refresh_token, api_key,
 * X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, client_secret, ...), and the short ones this suite
 * and OAuth use: t (cloud inline links), sig (local storage addresses), code, auth, session, sid, jwt.
 */
const SENSITIVE_NAME =
  /token|secret|passw|signature|credential|key|^(?:t|sig|code|auth|authorization|session|sid|jwt)$/i;

const decoded = (name: string) => {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
};

/** Whether a query parameter (or object key) of this name carries a credential. */
export const isSensitiveName = (name: string): boolean => SENSITIVE_NAME.test(decoded(name));

/** `text` (a URL, or any text holding URLs: a message, a stack) with the value of every sensitive query parameter replaced. */
export function redactUrls(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(/([?&])([^=&#\s"'<>]+)=([^&#\s"'<>]*)/g, (whole, sep: string, name: string) =>
    isSensitiveName(name) ? `${sep}${name}=${CENSOR}` : whole,
  );
}

/**
 * Plain objects, and those built on a plain or null prototype (pino's serializers' objects, Node's headers);
 * not a Date, a Buffer, a stream or any other class instance. By name: an object of another realm (a vm
 * context, as jest's) has another Object.
 */
const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (!value || typeof value !== 'object') return false;
  const constructor = (Object.getPrototypeOf(value) as { constructor?: { name?: string } } | null)?.constructor;
  return constructor === undefined || (typeof constructor === 'function' && constructor.name === 'Object');
};

/** Redacts the URLs in the strings of plain objects and arrays (what log calls and serializers produce), a few levels deep. */
export function scrub(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactUrls(value);
  if (depth > 4) return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (!isPlain(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, depth + 1)]));
}

/**
 * One logger per process; secrets and tokens never reach the output: credential headers are censored, and so is
 * every sensitive query value of a URL anywhere in a line (its message, its fields, an error's message and
 * stack), so a link with a token (?token=, a signed address's sig or X-Amz-Signature) is logged without it.
 * In development on a terminal it writes
 * readable coloured lines (pino-pretty, in pino's worker thread); otherwise one JSON object per line, for log
 * collectors (`destination` replaces stdout, for tests).
 *
 * Levels carry a meaning: `error` and `fatal` are bugs and keep the stack trace of their `err`; `warn` and
 * below are expected trouble (a client's 4xx, a dependency down) and log `err` as "Name: message" only.
 */
export function createLogger(
  config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>,
  destination?: pino.DestinationStream,
): Logger {
  const pretty = !destination && config.NODE_ENV === 'development' && process.stdout.isTTY === true;
  const options: pino.LoggerOptions = {
    level: config.LOG_LEVEL,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        'req.headers["x-internal-secret"]',
        'req.headers["x-server-api-key"]',
        '*.password',
        '*.token',
      ],
      censor: '[redacted]',
    },
    serializers: { err: (err: Error) => scrub(pino.stdSerializers.err(err)) },
    hooks: {
      logMethod(args, method, level) {
        const [fields] = args as unknown[];
        const err = (fields as { err?: unknown } | null)?.err;
        if (level < ERROR_LEVEL && err instanceof Error)
          (args as unknown[])[0] = { ...(fields as object), err: `${err.name}: ${err.message}` };
        return method.apply(this, (args as unknown[]).map((arg) => scrub(arg)) as typeof args);
      },
    },
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
