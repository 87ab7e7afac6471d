import { ConfigError, loadConfig } from '../lib/config';
import { createLogger } from '../lib/logger';
import { checkRedisDurability } from '../lib/redis';
import { onShutdown } from '../lib/shutdown';
import { createServices, type Services } from '../domain/services';

/**
 * Boots a dyno: validated configuration (a bad one stops the process naming the variable), shared services
 * (and a check that Redis keeps queued jobs durably), then the dyno's own part; SIGTERM stops that part
 * first (finishing in-flight work), then the connections.
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
    // Worker and clock dynos run jobs: their statements may run longer than the request path allows.
    const services = await createServices(config, logger, { db: name === 'worker' || name === 'clock' ? 'jobs' : 'requests' });
    void checkRedisDurability(services.redis, logger, config.production);
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
