import { DateTime } from 'luxon';
import { newId } from '../entities/base';
import { Subscription } from '../entities/billing/subscription';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { complianceQueue } from '../queues/hr';
import { report, runBenchmark, startBenchApp } from './lib';

/**
 * HR at scale: 1,000 employees x 4 weeks of punches (a 7 h day in two halves, Monday to Friday; one employee in
 * ten works 11 h on Mondays without a pause, so the scan finds breaches). Measures
 *  - a compliance scan of the 4 weeks: POST /api/rh/compliance/scan -> queue `compliance` (batches of 250
 *    employees) -> alerts stored, end to end;
 *  - the timesheet export of the same, streamed (CSV and JSON), read to the end by the client.
 * Baseline: reading the same punches with one plain SELECT (what both must at least do).
 */
const EMPLOYEES = Number(process.env.BENCH_HR_EMPLOYEES ?? 1000);
const WEEKS = 4;
const ZONE = 'Europe/Paris';

async function main() {
  // Set-up writes 80k punches in large statements, and the scan jobs run in this process (a worker dyno has
  // DATABASE_JOB_TIMEOUT_MS): the request path's 600 ms bound is raised.
  const app = await startBenchApp('hr', {
    env: { DATABASE_TIMEOUT_MS: process.env.BENCH_HR_DB_TIMEOUT_MS ?? '5000', REDIS_TIMEOUT_MS: '5000' },
  });
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-hr-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'business' }, { filters: false });
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const tenantId = organization.id;

    // Set-up: employees and punches written directly (this is not what is measured).
    const monday = DateTime.now()
      .setZone(ZONE)
      .startOf('week')
      .minus({ weeks: WEEKS + 1 });
    const employeeIds = Array.from({ length: EMPLOYEES }, () => newId());
    const now = new Date();
    for (let i = 0; i < employeeIds.length; i += 500) {
      const chunk = employeeIds.slice(i, i + 500);
      await em.execute(
        `insert into hr_employees (id, tenant_id, created_at, updated_at, first_name, last_name, time_zone) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flatMap((id, k) => [id, tenantId, now, now, 'Bench', `Employee ${i + k}`, ZONE]),
      );
    }
    const punches: unknown[][] = [];
    employeeIds.forEach((id, n) => {
      for (let d = 0; d < WEEKS * 7; d++) {
        const day = monday.plus({ days: d });
        if (day.weekday > 5) continue;
        const long = n % 10 === 0 && day.weekday === 1;
        const spans = long
          ? [['08:00', '19:00']]
          : [
              ['09:00', '12:30'],
              ['13:30', '17:00'],
            ];
        for (const [start, end] of spans) {
          for (const [kind, time] of [
            ['in', start],
            ['out', end],
          ]) {
            const at = day.set({ hour: Number(time.slice(0, 2)), minute: Number(time.slice(3)) }).toJSDate();
            punches.push([newId(), tenantId, now, id, kind, at, ZONE, 'badge']);
          }
        }
      }
    });
    for (let i = 0; i < punches.length; i += 5000) {
      const chunk = punches.slice(i, i + 5000);
      await em.execute(
        `insert into hr_clock_events (id, tenant_id, created_at, employee_id, kind, at, time_zone, source) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    await em.execute('analyze hr_clock_events');
    const from = monday.toISODate()!;
    const to = monday.plus({ weeks: WEEKS, days: -1 }).toISODate()!;
    const round = (n: number, d = 2) => +n.toFixed(d);

    // Baseline: the punches of the period in one SELECT.
    let t = performance.now();
    const raw = await em.execute(
      'select id, employee_id, kind, at from hr_clock_events where tenant_id = ? and at >= ? and at < ?',
      [tenantId, monday.minus({ days: 1 }).toJSDate(), monday.plus({ weeks: WEEKS, days: 1 }).toJSDate()],
    );
    const baselineSeconds = (performance.now() - t) / 1000;

    // Compliance scan, end to end through the queue.
    const queue = app.services.queues.get(complianceQueue);
    t = performance.now();
    const res = await fetch(`${app.url}/api/rh/compliance/scan`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ from, to }),
    });
    if (res.status !== 202) throw new Error(`scan answered ${res.status}: ${await res.text()}`);
    for (;;) {
      const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed');
      if (counts.failed) throw new Error('a scan job failed');
      const [{ n }] = await em.execute<{ n: number }[]>(
        'select count(*)::int as n from hr_compliance_alerts where tenant_id = ?',
        [tenantId],
      );
      if (counts.waiting + counts.active + counts.delayed + counts.prioritized === 0 && n > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const scanSeconds = (performance.now() - t) / 1000;
    const [{ n: alerts }] = await em.execute<{ n: number }[]>(
      'select count(*)::int as n from hr_compliance_alerts where tenant_id = ?',
      [tenantId],
    );

    // Timesheet export, CSV then JSON, read to the end.
    const exportOnce = async (format: 'csv' | 'json') => {
      const start = performance.now();
      const r = await fetch(`${app.url}/api/rh/exports/timesheet?from=${from}&to=${to}&format=${format}`, { headers });
      if (r.status !== 200) throw new Error(`export answered ${r.status}: ${await r.text()}`);
      const text = await r.text();
      const rows =
        format === 'csv' ? text.trim().split('\n').length - 1 : (JSON.parse(text) as { rows: unknown[] }).rows.length;
      return { seconds: (performance.now() - start) / 1000, rows, bytes: text.length };
    };
    const csv = await exportOnce('csv');
    const json = await exportOnce('json');

    report('hr', {
      employees: EMPLOYEES,
      weeks: WEEKS,
      punches: punches.length,
      baseline: {
        what: 'one SELECT of the period punches',
        seconds: round(baselineSeconds, 3),
        rowsPerSecond: Math.round(raw.length / baselineSeconds),
      },
      complianceScan: {
        seconds: round(scanSeconds),
        punchesPerSecond: Math.round(punches.length / scanSeconds),
        employeesPerSecond: Math.round(EMPLOYEES / scanSeconds),
        alerts,
        xBaseline: round(scanSeconds / baselineSeconds, 1),
      },
      timesheetCsv: {
        seconds: round(csv.seconds),
        rows: csv.rows,
        rowsPerSecond: Math.round(csv.rows / csv.seconds),
        megabytes: round(csv.bytes / 1e6),
        xBaseline: round(csv.seconds / baselineSeconds, 1),
      },
      timesheetJson: {
        seconds: round(json.seconds),
        rows: json.rows,
        rowsPerSecond: Math.round(json.rows / json.seconds),
        megabytes: round(json.bytes / 1e6),
      },
    });
  } finally {
    await app.close();
  }
}

void runBenchmark(main);
