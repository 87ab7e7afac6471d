import { ConfigError, loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { onShutdown } from '../lib/shutdown';
import { createServices, type Services } from '../domain/services';

/**
 * Boots a dyno: validated configuration (a bad one stops the process naming the variable), shared services,
 * then the dyno's own part; SIGTERM stops that part first (finishing in-flight work), then the connections.
 */
export async function runProcess(name: string, start: (services: Services) => Promise<() => Promise<void>>): Promise<void> {
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
    const services = await createServices(config, logger);
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
