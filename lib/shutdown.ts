import type { Logger } from './logger';

/**
 * Runs `stop` once on SIGTERM or SIGINT (Heroku sends SIGTERM and kills 30 s later), then exits.
 * A second signal, or a stop that hangs past `graceMs`, exits at once.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>, graceMs = 25_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out');
      process.exit(1);
    }, graceMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}
