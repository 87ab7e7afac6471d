import { ConfigError, loadConfig, type Config } from './config';
import { createLogger, type Logger } from './logger';
import { onShutdown } from './shutdown';

/** What a dyno opens before its own part starts, and closes after it stopped. */
export interface Opened {
  close(): Promise<void>;
}

/**
 * Boots a dyno: validated configuration (a bad one stops the process naming the variable), what it opens (the
 * shared services, see domain/services.ts `servicesFor`), then the dyno's own part; SIGTERM stops that part first
 * (finishing in-flight work), then the connections.
 */
export async function runProcess<S extends Opened>(
  name: string,
  open: (config: Config, logger: Logger) => Promise<S>,
  start: (services: S) => Promise<() => Promise<void>>,
): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${name}: ${err.message}`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config).child({ dyno: name });
  try {
    const services = await open(config, logger);
    const stop = await start(services);
    onShutdown(logger, async () => {
      await stop();
      await services.close();
    });
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
