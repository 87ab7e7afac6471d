import pino from 'pino';
import type { Config } from './config';

export type Logger = pino.Logger;

const ERROR_LEVEL = 50;

/**
 * One logger per process; secrets and tokens never reach the output. In development on a terminal it writes
 * readable coloured lines (pino-pretty, in pino's worker thread); otherwise one JSON object per line, for log
 * collectors (`destination` replaces stdout, for tests).
 *
 * Levels carry a meaning: `error` and `fatal` are bugs and keep the stack trace of their `err`; `warn` and
 * below are expected trouble (a client's 4xx, a dependency down) and log `err` as "Name: message" only.
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, destination?: pino.DestinationStream): Logger {
  const pretty = !destination && config.NODE_ENV === 'development' && process.stdout.isTTY === true;
  const options: pino.LoggerOptions = {
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-internal-secret"]', 'req.headers["x-server-api-key"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
    hooks: {
      logMethod(args, method, level) {
        const [fields] = args as unknown[];
        const err = (fields as { err?: unknown } | null)?.err;
        if (level < ERROR_LEVEL && err instanceof Error) (args as unknown[])[0] = { ...(fields as object), err: `${err.name}: ${err.message}` };
        return method.apply(this, args);
      },
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}
