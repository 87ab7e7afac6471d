import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics of one process, on its own registry (several app instances may share a test process). */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'jobs_total',
      help: 'Jobs finished by queue and outcome',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    }),
    mailsCapped: new Counter({
      name: 'mails_capped_total',
      help: 'Mails not sent because their recipient had MAIL_RECIPIENT_CAP_PER_HOUR mails anyone can cause in the last hour, by template',
      labelNames: ['template'],
      registers: [registry],
    }),
    telemetryEventsDropped: new Counter({
      name: 'vr_telemetry_events_dropped_total',
      help: 'Telemetry events dropped by the worker for naming a member of the organisation who took no part in the session',
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
