import { Client } from 'pg';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { latencyStats, report, runBenchmark, startBareExpress, startBenchApp, timeSequential } from './lib';

/**
 * Cloud: (1) a folder listing at 10,000 files: GET /api/cloud/folders/{id}/contents, 50 per page, sorted by
 * name, size and date, first pages and pages deep into the folder (keyset cursors); sequential requests,
 * p50/p95/p99 (goal p95 <= 30 ms). (2) The upload round trip: upload-url (quota reservation + presigned
 * address) and upload-confirm (stat + record + settle), with the PUT of 1 KiB in between (the local
 * adapter's store, served by the same instance), from 8 concurrent clients for a bounded time.
 * Baselines: a bare Express hello-world GET, and a gated cloud GET of one small query, measured the same way
 * in the same run.
 */
const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const UPLOAD_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CLIENTS = 8;

async function main() {
  const bare = await startBareExpress();
  const app = await startBenchApp('cloud', { workers: false });
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-cloud-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    const api = (path: string, init: RequestInit = {}) => fetch(`${app.url}${path}`, { ...init, headers });

    const folder = (await (
      await api('/api/cloud/folders', { method: 'POST', body: JSON.stringify({ name: 'Big' }) })
    ).json()) as { id: string };
    // 10,000 files recorded directly, on a connection without the request path's statement bound (the listing reads rows only; no objects needed).
    const seed = new Client({ connectionString: app.env.DATABASE_URL });
    await seed.connect();
    await seed.query(
      `insert into cloud_nodes (id, tenant_id, created_at, updated_at, kind, purpose, parent_id, name, size, content_type, category, object_key)
       select gen_random_uuid(), $1, now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval, 'file', 'file', $2, 'file-' || lpad(i::text, 6, '0') || '.txt', (i * 7919) % 100000, 'text/plain', 'text', $3 || '/files/bench-' || i
       from generate_series(1, $4::int) i`,
      [organization.id, folder.id, organization.id, FILES],
    );
    await seed.query('analyze cloud_nodes');
    await seed.end();

    const baseline = latencyStats(await timeSequential(REQUESTS, () => fetch(`${bare.url}/hello`)));
    // Second baseline: a gated cloud GET of one small query (the caller's empty favourites), so the listing's own cost shows apart from the database's latency on this machine.
    const gatedOneQuery = latencyStats(await timeSequential(REQUESTS, () => api('/api/cloud/folders/starred')));
    const listing: Record<string, ReturnType<typeof latencyStats>> = {};
    for (const sort of ['name', 'size', 'date'] as const) {
      await timeSequential(20, () => api(`/api/cloud/folders/${folder.id}/contents?sort=${sort}`)); // warm-up
      listing[`${sort}FirstPage`] = latencyStats(
        await timeSequential(REQUESTS, (i) =>
          api(`/api/cloud/folders/${folder.id}/contents?sort=${sort}&order=${i % 2 ? 'desc' : 'asc'}`),
        ),
      );
    }
    // Deep pages: follow the cursor through the whole folder, 200 per page.
    const deep: number[] = [];
    let cursor: string | null = null;
    do {
      const t = performance.now();
      const page = (await (
        await api(`/api/cloud/folders/${folder.id}/contents?limit=200${cursor ? `&cursor=${cursor}` : ''}`)
      ).json()) as { nextCursor: string | null };
      deep.push(performance.now() - t);
      cursor = page.nextCursor;
    } while (cursor);
    listing.walkAllPagesOf200 = latencyStats(deep);

    // Upload round trips from CLIENTS concurrent clients.
    const urlMs: number[] = [];
    const confirmMs: number[] = [];
    let done = 0;
    const body = Buffer.alloc(1024, 7);
    const deadline = Date.now() + UPLOAD_SECONDS * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        for (let i = 0; Date.now() < deadline; i++) {
          let t = performance.now();
          const ticketRes = await api('/api/cloud/files/upload-url', {
            method: 'POST',
            body: JSON.stringify({
              name: `up-${c}-${i}.bin`,
              size: body.length,
              contentType: 'application/octet-stream',
            }),
          });
          const ticket = (await ticketRes.json()) as { uploadId: string; url: string; headers: Record<string, string> };
          if (ticketRes.status !== 201) throw new Error(`upload-url answered ${ticketRes.status}`);
          urlMs.push(performance.now() - t);
          const put = await fetch(ticket.url, { method: 'PUT', body, headers: ticket.headers });
          await put.arrayBuffer();
          t = performance.now();
          const confirm = await api('/api/cloud/files/upload-confirm', {
            method: 'POST',
            body: JSON.stringify({ uploadId: ticket.uploadId }),
          });
          await confirm.arrayBuffer();
          if (confirm.status !== 201) throw new Error(`upload-confirm answered ${confirm.status}`);
          confirmMs.push(performance.now() - t);
          done++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;

    report('cloud', {
      files: FILES,
      baselineBareExpressGet: baseline,
      baselineGatedOneQueryGet: gatedOneQuery,
      listing,
      listingP95VsBaseline: +(listing.nameFirstPage.p95Ms / baseline.p95Ms).toFixed(1),
      listingP95VsGatedOneQuery: +(listing.nameFirstPage.p95Ms / gatedOneQuery.p95Ms).toFixed(1),
      goalListingP95Ms: 30,
      uploads: {
        clients: CLIENTS,
        seconds: +seconds.toFixed(1),
        threeStepUploadsPerSecond: +(done / seconds).toFixed(1),
        uploadUrl: latencyStats(urlMs),
        uploadConfirm: latencyStats(confirmMs),
      },
    });
  } finally {
    await app.close();
    await bare.close();
  }
}

void runBenchmark(main);
