import { Client } from 'pg';
import type { Services } from '../../domain/services';
import { fanOutEvents } from '../../domain/webhooks/fanOutEvents';

/** How often the fan-out runs without a notification (a LISTEN connection lost, a notification missed). */
const SWEEP_MS = 5000;

/**
 * The worker dyno's fan-out of committed webhook events: PostgreSQL NOTIFYs `webhook_events` when a transaction
 * that wrote events commits (a statement trigger; never for a rolled-back one), and this LISTENs on a connection of
 * its own and fans out at once; runs are coalesced (one at a time, one more if notified meanwhile). It also sweeps
 * every few seconds, and the clock's reconciliation fans out too, so a lost connection delays events, never
 * loses them. Returns the stop function.
 */
export function startWebhookDispatcher(services: Services): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let client: Client | null = null;
  const run = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = fanOutEvents(services)
      .then(
        () => undefined,
        (err: Error) => services.logger.warn({ err: err.message }, 'webhook fan-out failed; the sweep retries'),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          run();
        }
      });
  };
  const connect = async (): Promise<void> => {
    if (stopped) return;
    const c = new Client({ connectionString: services.config.DATABASE_URL });
    c.on('error', () => undefined);
    c.on('notification', run);
    c.on('end', () => {
      if (client === c) client = null;
      if (!stopped) setTimeout(() => void connect(), 1000).unref();
    });
    try {
      await c.connect();
      await c.query('listen webhook_events');
      client = c;
      if (stopped) await c.end();
      run();
    } catch {
      await c.end().catch(() => undefined);
    }
  };
  void connect();
  const sweep = setInterval(run, SWEEP_MS);
  sweep.unref();
  return async () => {
    stopped = true;
    clearInterval(sweep);
    await client?.end().catch(() => undefined);
    await running;
  };
}
