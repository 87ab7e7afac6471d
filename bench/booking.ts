import { once } from 'node:events';
import type { Server } from 'node:http';
import { loadavg } from 'node:os';
import express from 'express';
import { DateTime } from 'luxon';
import { newId } from '../entities/base';
import { Subscription } from '../entities/billing/subscription';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { percentile, report, runBenchmark, startBareExpress, startBenchApp } from './lib';

/**
 * Booking at a realistic size: 20 staff working Monday to Saturday 09:00-18:00 (Europe/Paris), about 60% booked
 * over the next 30 days (30-minute service, 10 minutes of buffer after; ~3,500 appointments) plus a busy event a
 * day each. Measures
 *  - availability: GET /api/public/stores/{slug}/availability for 30 days x every staff member ("any staff"),
 *    one request at a time, p50/p95/p99 (goal: p95 <= 50 ms); then the storefront's default week (no `to`);
 *  - booking under contention: BENCH_BOOKING_CLIENTS clients booking random slots of one small day (far more
 *    requests than slots) through the storefront; bookings/s, 409 slot_taken/s, latency, and double bookings
 *    found afterwards (must be 0).
 * Baselines: a bare Express hello-world GET, the app's /health, and bare Express answering the month's JSON (the
 * same object through res.json: what the answer's size costs by itself), one request at a time, in the same run.
 */
const STAFF = 20;
const DAYS = 30;
const ZONE = 'Europe/Paris';
const SAMPLES = Number(process.env.BENCH_BOOKING_SAMPLES ?? 60);
const CLIENTS = Number(process.env.BENCH_BOOKING_CLIENTS ?? 20);
const CONTENTION_SECONDS = Number(process.env.BENCH_BOOKING_SECONDS ?? 8);
const round = (n: number, d = 2) => +n.toFixed(d);

/** Sequential requests: sorted latencies, and the CPU this process (server and client) spent per request. */
let lastCpuMs = 0;
async function timed(url: string, count: number, init?: RequestInit): Promise<number[]> {
  const times: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  lastCpuMs = (used.user + used.system) / 1000 / count;
  return times.sort((a, b) => a - b);
}
const summary = (sorted: number[]) => ({
  p50Ms: round(percentile(sorted, 50)),
  p95Ms: round(percentile(sorted, 95)),
  p99Ms: round(percentile(sorted, 99)),
});
const withCpu = (sorted: number[]) => ({ ...summary(sorted), cpuMsPerRequest: round(lastCpuMs) });

async function main() {
  const app = await startBenchApp('booking', {
    workers: false,
    env: {
      RATE_LIMIT_ANON_PER_MINUTE: '10000000',
      RATE_LIMIT_BOOKINGS_PER_IP_HOUR: '10000000',
      RATE_LIMIT_BOOKINGS_PER_EMAIL_HOUR: '10000000',
      RATE_LIMIT_BOOKINGS_PER_STORE_HOUR: '10000000',
      DATABASE_TIMEOUT_MS: '5000',
    },
  });
  const bare = await startBareExpress();
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-booking-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    await em.nativeUpdate(Subscription, { tenantId: organization.id }, { tier: 'business' }, { filters: false });
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${app.url}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return (await res.json()) as T;
    };
    const tenantId = organization.id;
    const business = await api<{ id: string }>('GET', '/api/businesses');
    const slug = `bench-${Date.now().toString(36)}`;
    await api('PATCH', `/api/businesses/${business.id}`, { publicSlug: slug, publicProfile: { published: true } });
    const service = await api<{ id: string }>('POST', '/api/rdv/services', {
      name: 'Bench cut',
      durationMinutes: 30,
      priceCents: 2500,
      bufferAfterMinutes: 10,
    });
    const hours = Object.fromEntries(['1', '2', '3', '4', '5', '6'].map((d) => [d, ['09:00-18:00']]));
    const staffIds: string[] = [];
    for (let i = 0; i < STAFF; i++)
      staffIds.push(
        (
          await api<{ id: string }>('POST', '/api/rdv/staff', {
            displayName: `Staff ${String(i).padStart(2, '0')}`,
            weeklyHours: hours,
          })
        ).id,
      );

    // Set-up written directly: ~60% of each working day booked, one busy hour of calendar a day.
    const today = DateTime.now().setZone(ZONE).startOf('day');
    const now = new Date();
    const appointments: unknown[][] = [];
    const events: unknown[][] = [];
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const staffId of staffIds) {
      for (let d = 1; d <= DAYS; d++) {
        const day = today.plus({ days: d });
        if (day.weekday === 7) continue;
        for (let m = 9 * 60; m + 40 <= 17 * 60; m += 45) {
          if (random() > 0.6) continue;
          const start = day.plus({ minutes: m }).toJSDate();
          const end = new Date(start.getTime() + 30 * 60_000);
          appointments.push([
            newId(),
            tenantId,
            now,
            now,
            service.id,
            staffId,
            start,
            end,
            start,
            new Date(end.getTime() + 10 * 60_000),
            'booked',
            'staff',
          ]);
        }
        const busy = day.plus({ hours: 17 }).toJSDate();
        events.push([
          newId(),
          tenantId,
          now,
          now,
          user.id,
          staffId,
          'Admin',
          busy,
          new Date(busy.getTime() + 3_600_000),
        ]);
      }
    }
    for (let i = 0; i < appointments.length; i += 2000) {
      const chunk = appointments.slice(i, i + 2000);
      await em.execute(
        `insert into booking_appointments (id, tenant_id, created_at, updated_at, service_id, staff_id, start_at, end_at, blocked_from, blocked_until, status, source) values ${chunk.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        chunk.flat(),
      );
    }
    await em.execute(
      `insert into calendar_events (id, tenant_id, created_at, updated_at, owner_id, staff_id, title, start_at, end_at) values ${events.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      events.flat(),
    );
    await em.execute('analyze booking_appointments; analyze calendar_events');

    // Baselines, then availability for 30 days x 20 staff, one request at a time (after a short warm-up).
    const from = today.plus({ days: 1 }).toUTC().toISO()!;
    const to = today
      .plus({ days: 1 + DAYS })
      .toUTC()
      .toISO()!;
    const availability = `${app.url}/api/public/stores/${slug}/availability?serviceId=${service.id}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    await timed(availability, 5);
    await timed(`${bare.url}/hello`, 20);
    const bareTimes = await timed(`${bare.url}/hello`, SAMPLES);
    const bareFigures = withCpu(bareTimes);
    const healthTimes = await timed(`${app.url}/health`, SAMPLES);
    const healthFigures = withCpu(healthTimes);
    const availabilityTimes = await timed(availability, SAMPLES);
    const availabilityFigures = withCpu(availabilityTimes);
    const sample = (await (await fetch(availability)).json()) as { slots: { start: string; staffIds: string[] }[] };
    // The answer's own cost: bare Express sending the same month's JSON (res.json of the same object), sequential.
    const answerServer: Server = express()
      .get('/answer', (_req, res) => void res.json(sample))
      .listen(0, '127.0.0.1');
    await once(answerServer, 'listening');
    const answerUrl = `http://127.0.0.1:${(answerServer.address() as { port: number }).port}/answer`;
    await timed(answerUrl, 5);
    const answerFigures = {
      ...withCpu(await timed(answerUrl, SAMPLES)),
      kB: Math.round(JSON.stringify(sample).length / 1024),
    };
    await new Promise((resolve) => answerServer.close(resolve));
    // The storefront's default range (no `to`: the week from `from`).
    const week = `${app.url}/api/public/stores/${slug}/availability?serviceId=${service.id}&from=${encodeURIComponent(from)}`;
    await timed(week, 3);
    const weekTimes = await timed(week, SAMPLES);
    const weekFigures = withCpu(weekTimes);
    const weekSample = (await (await fetch(week)).json()) as { slots: unknown[] };

    // Contention: every client books random slots of one day with 2 staff free on it; most requests collide.
    const day = today.plus({ days: DAYS + 3 });
    const contested = day.weekday === 7 ? day.plus({ days: 1 }) : day;
    const starts = Array.from({ length: 12 }, (_, k) =>
      contested
        .plus({ hours: 9, minutes: 45 * k })
        .toUTC()
        .toISO()!,
    );
    const latencies: number[] = [];
    const counts = { created: 0, slotTaken: 0, other: 0 };
    const deadline = performance.now() + CONTENTION_SECONDS * 1000;
    let n = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < deadline) {
          const i = n++;
          const body = {
            name: `Client ${i}`,
            email: `client.${i}@example.test`,
            serviceId: service.id,
            staffId: staffIds[i % 2],
            start: starts[Math.floor(random() * starts.length)],
          };
          const t = performance.now();
          const res = await fetch(`${app.url}/api/public/stores/${slug}/bookings`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
          const answer = (await res.json()) as { code?: string };
          latencies.push(performance.now() - t);
          if (res.status === 201) counts.created++;
          else if (res.status === 409 && answer.code === 'slot_taken') counts.slotTaken++;
          else counts.other++;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const [{ doubles }] = await em.execute<{ doubles: number }[]>(
      `select count(*)::int as doubles from booking_appointments a join booking_appointments b on a.staff_id = b.staff_id and a.id < b.id
       and a.status <> 'cancelled' and b.status <> 'cancelled' and tstzrange(a.blocked_from, a.blocked_until) && tstzrange(b.blocked_from, b.blocked_until) where a.tenant_id = ?`,
      [tenantId],
    );

    const p95 = percentile(availabilityTimes, 95);
    const load = loadavg()[0];
    report('booking', {
      loadAverage1m: round(load),
      staff: STAFF,
      days: DAYS,
      appointments: appointments.length,
      busyEvents: events.length,
      baseline: { bareExpress: bareFigures, appHealth: healthFigures, bareExpressSameMonthAnswer: answerFigures },
      availability: {
        what: `GET availability, ${DAYS} days x ${STAFF} staff (any staff), sequential`,
        samples: SAMPLES,
        ...availabilityFigures,
        goalP95Ms: 50,
        meetsGoal: p95 <= 50,
        slotsReturned: sample.slots.length,
        xHealthP50: round(percentile(availabilityTimes, 50) / percentile(healthTimes, 50), 1),
      },
      availabilityWeek: {
        what: `GET availability without to (default: 7 days) x ${STAFF} staff (any staff), sequential`,
        samples: SAMPLES,
        ...weekFigures,
        goalP95Ms: 50,
        meetsGoal: percentile(weekTimes, 95) <= 50,
        slotsReturned: weekSample.slots.length,
      },
      contention: {
        what: `${CLIENTS} clients booking ${starts.length} slots x 2 staff on one day through the storefront for ${CONTENTION_SECONDS} s`,
        requests: latencies.length,
        requestsPerSecond: Math.round(latencies.length / CONTENTION_SECONDS),
        created: counts.created,
        slotTaken: counts.slotTaken,
        otherAnswers: counts.other,
        ...summary(latencies),
        doubleBookings: doubles,
      },
      note: 'On a shared 2-core machine next to other work, latency includes waiting for a core: cpuMsPerRequest (server and client in this process) is the steadier figure; compare with the baselines of the same run.',
    });
    if (doubles !== 0) throw new Error(`${doubles} double bookings`);
  } finally {
    await bare.close();
    await app.close();
  }
}

void runBenchmark(main);
