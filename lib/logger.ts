import pino from 'pino';
import type { Config } from './config';

export type Logger = pino.Logger;

/** One JSON logger per process; secrets and tokens never reach the output. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  return pino({
    level: config.LOG_LEVEL,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-internal-secret"]', 'req.headers["x-server-api-key"]', '*.password', '*.token'],
      censor: '[redacted]',
    },
  });
}
