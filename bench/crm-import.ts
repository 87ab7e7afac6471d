import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createReadStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { report, runBenchmark, startBenchApp } from './lib';

/**
 * Spreadsheet import of 100,000 rows by a member (docs/crm.md): the CSV (name, e-mail, phone, street, city, a number custom
 * field) uploaded as a stream, dry-run, imported by the worker; records/s of each step and end to end, and the
 * process's memory (RSS and heap high-water marks, sampled every 50 ms, against before the upload: flat means the
 * file is never held whole). Baseline, same run, same rows: PostgreSQL COPY of the same file (psql \copy) into a
 * table of the same columns.
 */
const ROWS = Number(process.env.BENCH_CRM_IMPORT_ROWS ?? 100_000);

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'crm-import-'));
  const file = join(dir, 'rows.csv');
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('error', reject);
    out.write('Name,E-mail,Phone,Street,City,Seats\n');
    for (let i = 0; i < ROWS; i++)
      out.write(
        `"Person ${i}, Ltd",p${i}@example.test,+33 6 ${String(i).padStart(8, '0')},${i} rue de la République,Lyon,${i % 50}\n`,
      );
    out.end(resolve);
  });
  const bytes = statSync(file).size;
  const app = await startBenchApp('crm_import', { env: { DATABASE_TIMEOUT_MS: '5000', REDIS_TIMEOUT_MS: '5000' } });
  try {
    const em = app.services.orm.em.fork();
    const owner = await createUser(em, {
      email: `bench-crm-import-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const { accessToken } = await startSession(app.services, em, owner.user, owner.organization.id);
    const auth = { authorization: `Bearer ${accessToken}` };
    const api = async (path: string, init: RequestInit = {}) => {
      const res = await fetch(`${app.url}${path}`, {
        ...init,
        headers: { ...auth, 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    await api('/api/customers/fields/seats', {
      method: 'PUT',
      body: JSON.stringify({ label: 'Seats', type: 'number' }),
    });

    global.gc?.();
    const base = process.memoryUsage();
    let peakRss = base.rss;
    let peakHeap = base.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 50);
    const t0 = performance.now();
    const up = await fetch(`${app.url}/api/customers/imports/uploads?fileName=rows.csv`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/csv', 'content-length': String(bytes) },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const upload = (await up.json()) as { id: string; rows: number; suggestedMapping: string[] };
    if (up.status !== 201 || upload.rows !== ROWS) throw new Error(`upload answered ${up.status}`);
    const t1 = performance.now();
    const mapping = upload.suggestedMapping;
    const dry = await api(`/api/customers/imports/uploads/${upload.id}/check`, {
      method: 'POST',
      body: JSON.stringify({ mapping }),
    });
    if (dry.status !== 200 || dry.body.valid !== ROWS)
      throw new Error(`check answered ${dry.status} ${JSON.stringify(dry.body).slice(0, 500)}`);
    const t2 = performance.now();
    const started = await api(`/api/customers/imports/uploads/${upload.id}/import`, {
      method: 'POST',
      body: JSON.stringify({ mapping }),
    });
    if (started.status !== 202) throw new Error(`import answered ${started.status} ${JSON.stringify(started.body)}`);
    const t3 = performance.now();
    for (;;) {
      const s = await api(`/api/customers/imports/${String(started.body.id)}`);
      if (s.body.status === 'completed') break;
      if (s.body.status !== 'queued' && s.body.status !== 'running') throw new Error(`import ${String(s.body.status)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const t4 = performance.now();
    clearInterval(sampler);

    // Baseline: COPY of the same file into a table of the same columns.
    const url = app.env.DATABASE_URL;
    const psql = (args: string[]) => {
      const run = spawnSync('psql', [url, '-v', 'ON_ERROR_STOP=1', '-q', ...args], { encoding: 'utf8' });
      if (run.status !== 0) throw new Error(run.stderr);
    };
    psql(['-c', 'create table bench_copy (name text, email text, phone text, street text, city text, seats int)']);
    const c0 = performance.now();
    psql(['-c', `\\copy bench_copy from '${file}' with (format csv, header true)`]);
    const copyMs = performance.now() - c0;
    psql(['-c', 'drop table bench_copy']);

    const perSecond = (ms: number) => Math.round((ROWS * 1000) / ms);
    report('crm-import', {
      rows: ROWS,
      fileMB: +(bytes / 1e6).toFixed(1),
      uploadMs: Math.round(t1 - t0),
      dryRunMs: Math.round(t2 - t1),
      startMs: Math.round(t3 - t2),
      workerMs: Math.round(t4 - t3),
      endToEndMs: Math.round(t4 - t0),
      recordsPerSecond: perSecond(t4 - t0),
      importOnlyRecordsPerSecond: perSecond(t4 - t2),
      copyMs: Math.round(copyMs),
      copyRecordsPerSecond: perSecond(copyMs),
      memory: {
        rssBeforeMB: Math.round(base.rss / 1e6),
        rssPeakMB: Math.round(peakRss / 1e6),
        heapBeforeMB: Math.round(base.heapUsed / 1e6),
        heapPeakMB: Math.round(peakHeap / 1e6),
      },
    });
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void runBenchmark(main);
