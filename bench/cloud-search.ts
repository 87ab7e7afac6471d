import { Client } from 'pg';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { searchStatement, type SearchFilter } from '../domain/cloud/store/items';
import {
  latencyStats,
  report,
  runBenchmark,
  spawnBareExpressWithStatement,
  startBareExpress,
  startBenchApp,
  timeSequential,
} from './lib';

/**
 * Drive search at 100,000 files (GET /api/cloud/folders/search), another organisation holding 100,000 more: by a
 * common and a rare name part, by type, owner, last-change window and size range, combined, and a deep page. Per case:
 * sequential p50/p95/p99 of the route, of its floor (bare Express sending the route's own statement, same values,
 * through a pg Pool: what any Express route awaiting that SQL pays), and of a bare Express hello-world; plus the
 * statement's own execution time and the indexes PostgreSQL chose (EXPLAIN ANALYZE). Goal: p95 <= 30 ms and every
 * case within 2x its floor. BENCH_FILES and BENCH_REQUESTS shorten it.
 */
const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WORDS = ['invoice', 'report', 'photo', 'contract', 'notes', 'budget', 'slides', 'minutes', 'plan', 'draft'];

/** knex's `?` placeholders as pg's `$n` (the statement has no `?` inside a literal). */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

async function main() {
  const bare = await startBareExpress();
  const app = await startBenchApp('cloud_search', { workers: false });
  const floors: { close(): Promise<void> }[] = [];
  try {
    const em = app.services.orm.em.fork();
    const made = await createUser(em, {
      email: `bench-search-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    const other = await createUser(em, {
      email: `bench-search-other-${Date.now()}@example.test`,
      password: null,
      displayName: 'other',
      emailConfirmed: true,
    });
    await em.flush();
    const tenantId = made.organization.id;
    const ownerId = made.user.id;
    const { accessToken } = await startSession(app.services, em, made.user, tenantId);
    const headers = { authorization: `Bearer ${accessToken}` };

    const seed = new Client({ connectionString: app.env.DATABASE_URL });
    seed.on('error', () => undefined); // the database is dropped at the end, with force
    await seed.connect();
    // Files recorded directly (the search reads rows only): names like "report-0042017.pdf", a tenth of them with a
    // rare part, sizes and last changes spread, a third created by the other user.
    const insert = `insert into cloud_nodes (id, tenant_id, created_at, updated_at, created_by, kind, purpose, parent_id, name, size, content_type, category, object_key)
      select gen_random_uuid(), $1::uuid, now() - (i || ' minutes')::interval, now() - (i || ' minutes')::interval,
             case when i % 3 = 0 then $2::uuid else $3::uuid end, 'file', 'file', null,
             ($4::text[])[1 + i % 10] || case when i % 1000 = 7 then '-zephyr' else '' end || '-' || lpad(i::text, 7, '0') || case when i % 4 = 0 then '.pdf' else '.txt' end,
             (i * 7919) % 10000000, case when i % 4 = 0 then 'application/pdf' else 'text/plain' end,
             case when i % 4 = 0 then 'pdf' else 'text' end, $1::text || '/files/s-' || i
      from generate_series(1, $5::int) i`;
    await seed.query(insert, [tenantId, other.user.id, ownerId, WORDS, FILES]);
    await seed.query(insert, [other.organization.id, other.user.id, other.user.id, WORDS, FILES]);
    await seed.query('analyze cloud_nodes');

    const day = 24 * 3600 * 1000;
    const cases: Record<string, { query: string; filter: SearchFilter; after?: string[] }> = {
      commonPart: { query: 'q=report', filter: { q: 'report' } },
      rarePart: { query: 'q=zephyr', filter: { q: 'zephyr' } },
      partAndType: { query: 'q=budget&type=text', filter: { q: 'budget', type: 'text' } },
      noMatch: { query: 'q=report&type=image', filter: { q: 'report', type: 'image' } },
      typeNoMatch: { query: 'type=video', filter: { type: 'video' } },
      owner: { query: `ownerId=${other.user.id}`, filter: { ownerId: other.user.id } },
      lastWeek: {
        query: `modifiedFrom=${new Date(Date.now() - 7 * day).toISOString()}`,
        filter: { modifiedFrom: new Date(Date.now() - 7 * day) },
      },
      sizeRange: { query: 'minSize=9000000&maxSize=9100000', filter: { minSize: 9_000_000, maxSize: 9_100_000 } },
      combined: {
        query: `q=plan&type=text&minSize=1000000&modifiedFrom=${new Date(Date.now() - 30 * day).toISOString()}`,
        filter: { q: 'plan', type: 'text', minSize: 1_000_000, modifiedFrom: new Date(Date.now() - 30 * day) },
      },
    };
    const who = { tenantId, starOwner: ownerId };
    const baseline = latencyStats(await timeSequential(REQUESTS, () => fetch(`${bare.url}/hello`)));
    const results: Record<string, unknown> = {};
    for (const [name, c] of Object.entries(cases)) {
      const { sql, params } = searchStatement(who, c.filter, { after: null, limit: 50 });
      const values = params.map((v) => (v instanceof Date ? v.toISOString() : v));
      const floor = await spawnBareExpressWithStatement(app.env.DATABASE_URL, 10, numbered(sql), values);
      floors.push(floor);
      const route = () => fetch(`${app.url}/api/cloud/folders/search?${c.query}`, { headers });
      const first = await route();
      const page = (await first.json()) as { items: unknown[] };
      if (first.status !== 200) throw new Error(`${name} answered ${first.status}`);
      await timeSequential(20, route);
      await timeSequential(20, () => fetch(`${floor.url}/hello`));
      const routeStats = latencyStats(await timeSequential(REQUESTS, route));
      const floorStats = latencyStats(await timeSequential(REQUESTS, () => fetch(`${floor.url}/hello`)));
      const plan = await seed.query<{ 'QUERY PLAN': unknown }>(
        `explain (analyze, format json) ${numbered(sql)}`,
        values,
      );
      const json = JSON.stringify(plan.rows[0]['QUERY PLAN']);
      const top = (plan.rows[0]['QUERY PLAN'] as { 'Execution Time': number }[])[0];
      results[name] = {
        query: c.query,
        items: page.items.length,
        route: routeStats,
        floor: floorStats,
        p95VsFloor: +(routeStats.p95Ms / floorStats.p95Ms).toFixed(2),
        statementMs: +top['Execution Time'].toFixed(2),
        indexes: [...new Set([...json.matchAll(/"Index Name":"([^"]+)"/g)].map((m) => m[1]))],
      };
      await floor.close();
    }
    await seed.end();
    report('cloud-search', {
      files: FILES,
      otherTenantFiles: FILES,
      baselineBareExpressGet: baseline,
      goalP95Ms: 30,
      cases: results,
    });
  } finally {
    for (const floor of floors) await floor.close().catch(() => undefined);
    await app.close();
    await bare.close();
  }
}

void runBenchmark(main);
