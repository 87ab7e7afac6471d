import { Client } from 'pg';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { latencyStats, report, runBenchmark, startBareExpress, startBenchApp, timeSequential } from './lib';

/**
 * Dashboard summary: GET /api/dashboard/summary for an organisation with BENCH_ROWS appointments, follow-ups,
 * open deals and VR sessions each (other organisations' rows around them), sequential requests, p50/p95/p99.
 * Every figure is one aggregate statement on an index, so the time should stay close to a gated GET of one
 * small query whatever the size; the ratio shows it. Baselines, same run: a bare Express GET and a gated GET of
 * one small query (GET /api/sidebar/preferences).
 */
const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);

async function main() {
  const bare = await startBareExpress();
  const app = await startBenchApp('dashboard', { workers: false });
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-dash-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const api = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { ...init, headers });
    const post = async <T>(path: string, body: object) => {
      const res = await api(path, { method: 'POST', body: JSON.stringify(body) });
      if (res.status !== 201) throw new Error(`${path} answered ${res.status}`);
      return (await res.json()) as T;
    };
    const service = await post<{ id: string }>('/api/rdv/services', {
      name: 'Cut',
      durationMinutes: 30,
      priceCents: 2500,
    });
    const staff = await post<{ id: string }>('/api/rdv/staff', { displayName: 'Alice' });
    const customer = await post<{ id: string }>('/api/customers', { kind: 'person', name: 'Ada' });
    const pipeline = await post<{ id: string; stages: { id: string }[] }>('/api/pipelines', {
      name: 'Sales',
      stages: [
        { name: 'Lead', probability: 10 },
        { name: 'Won soon', probability: 90 },
      ],
    });

    // Rows recorded directly, on a connection without the request path's statement bound.
    const seed = new Client({ connectionString: app.env.DATABASE_URL });
    await seed.connect();
    const t = organization.id;
    await seed.query(
      `insert into booking_appointments (id, tenant_id, created_at, updated_at, service_id, staff_id, start_at, end_at, blocked_from, blocked_until, status)
       select gen_random_uuid(), $1, now(), now(), $2, $3, s, s + interval '30 minutes', s, s + interval '30 minutes', 'booked'
       from (select now() - interval '365 days' + (i || ' hours')::interval as s from generate_series(1, $4::int) i) x`,
      [t, service.id, staff.id, ROWS],
    );
    await seed.query(
      `insert into crm_activities (id, tenant_id, created_at, updated_at, customer_id, type, subject, occurred_at, due_at, completed_at)
       select gen_random_uuid(), $1, now(), now(), $2, 'task', 'Follow up', now(), now() + ((i % 60 - 30) || ' days')::interval, case when i % 3 = 0 then now() end
       from generate_series(1, $3::int) i`,
      [t, customer.id, ROWS],
    );
    await seed.query(
      `insert into crm_deals (id, tenant_id, created_at, updated_at, title, customer_id, pipeline_id, stage_id, amount, currency, status, stage_changed_at)
       select gen_random_uuid(), $1, now(), now(), 'Deal ' || i, $2, $3, case when i % 2 = 0 then $4::uuid else $5::uuid end, i, 'EUR', 'open', now()
       from generate_series(1, $6::int) i`,
      [t, customer.id, pipeline.id, pipeline.stages[0].id, pipeline.stages[1].id, ROWS],
    );
    await seed.query(
      `insert into vr_sessions (id, tenant_id, created_at, room_id, room_name, simulation, simulation_steps, host_user_id, status, started_at)
       select gen_random_uuid(), $1, now(), gen_random_uuid(), 'Room', 'sim', 3, $2, 'ended', now() - (i || ' minutes')::interval
       from generate_series(1, $3::int) i`,
      [t, user.id, ROWS],
    );
    await seed.query('analyze booking_appointments; analyze crm_activities; analyze crm_deals; analyze vr_sessions');
    await seed.end();

    const baseline = latencyStats(await timeSequential(REQUESTS, () => fetch(`${bare.url}/hello`)));
    const gatedOneQuery = latencyStats(await timeSequential(REQUESTS, () => api('/api/sidebar/preferences')));
    await timeSequential(20, () => api('/api/dashboard/summary')); // warm-up
    const summary = latencyStats(await timeSequential(REQUESTS, () => api('/api/dashboard/summary')));

    report('dashboard', {
      rowsPerFigure: ROWS,
      baselineBareExpressGet: baseline,
      baselineGatedOneQueryGet: gatedOneQuery,
      summary,
      summaryP95VsGatedOneQuery: +(summary.p95Ms / gatedOneQuery.p95Ms).toFixed(1),
    });
  } finally {
    await app.close();
    await bare.close();
  }
}

void runBenchmark(main);
