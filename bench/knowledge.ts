import { readFileSync } from 'node:fs';
import { newId } from '../entities/base';
import { createUser } from '../domain/identity/createUser';
import { startSession } from '../domain/identity/sessions';
import { load, report, runBenchmark, startBenchApp } from './lib';

/**
 * Knowledge at scale: 50,000 articles in one organisation (one public knowledge base, ~60 words each from a
 * 2,000-word vocabulary, so a word matches ~1-3% of the corpus). Measures, at 20 concurrent clients:
 *  - member search GET /api/knowledge/search (full-text, ranked, ts_headline snippets, trigram typo match),
 *    cycling through 20 single-word, two-word and typo queries (answered from the search cache once computed,
 *    domain/knowledge/store/searchCache.ts; after 3 s of the same load, not measured, as a running dyno is warm); the
 *    target is p95 <= 50 ms (reported: p50 and p99, an upper bound of p95);
 *  - the same search with a distinct word per request (1,400 words, a cache miss each until the list wraps): what
 *    the prepared query itself costs under the same load;
 *  - an anonymous public article read (rendered Markdown, view counted in Redis) next to GET /health, the
 *    baseline of the same run.
 * BENCH_KB_ARTICLES and BENCH_KB_SECONDS shorten it.
 */
const ARTICLES = Number(process.env.BENCH_KB_ARTICLES ?? 50_000);
const SECONDS = Number(process.env.BENCH_KB_SECONDS ?? 10);
const CONNECTIONS = 20;

const syllables = [
  'ka',
  'lo',
  'mi',
  'ne',
  'so',
  'ta',
  'ri',
  'vu',
  'pe',
  'do',
  'gra',
  'shi',
  'mon',
  'tel',
  'zor',
  'bex',
];
const vocabulary = Array.from({ length: 2000 }, (_, i) => {
  let n = i + 17;
  let word = '';
  for (let k = 0; k < 3; k++, n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return `${word}${i}`;
});
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = () => vocabulary[Math.floor(random() * vocabulary.length)];

/**
 * CPU time (us) the PostgreSQL backends of the bench's database have used so far, from /proc (PostgreSQL on this
 * host; null elsewhere). Sampled around a load, it gives PostgreSQL's CPU per request next to the server's.
 */
async function postgresCpuUs(em: {
  execute(sql: string): Promise<{ pid: number }[]>;
}): Promise<Map<number, number> | null> {
  const tick = 10_000; // us per clock tick (USER_HZ 100)
  const out = new Map<number, number>();
  try {
    for (const { pid } of await em.execute('select pid from pg_stat_activity where datname = current_database()')) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * tick); // utime, stime
    }
  } catch {
    return null;
  }
  return out;
}

async function main() {
  const app = await startBenchApp('knowledge', {
    workers: false,
    env: { DATABASE_TIMEOUT_MS: '60000', REDIS_TIMEOUT_MS: '5000', RATE_LIMIT_ANON_PER_MINUTE: '100000000' },
  });
  try {
    const em = app.services.orm.em.fork();
    const { user, organization } = await createUser(em, {
      email: `bench-kb-${Date.now()}@example.test`,
      password: null,
      displayName: 'bench',
      emailConfirmed: true,
    });
    await em.flush();
    const { accessToken } = await startSession(app.services, em, user, organization.id);
    const headers = { authorization: `Bearer ${accessToken}` };
    const tenantId = organization.id;

    const space = await fetch(`${app.url}/api/knowledge/spaces`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench KB', mode: 'public_kb', slug: `bench-kb-${Date.now()}` }),
    });
    if (space.status !== 201) throw new Error(`space: ${space.status} ${await space.text()}`);
    const { id: spaceId, slug } = (await space.json()) as { id: string; slug: string };

    // Set-up (not measured): articles written in large statements; the database computes their tsvector.
    let t = performance.now();
    const now = new Date();
    for (let i = 0; i < ARTICLES; i += 1000) {
      const rows: unknown[][] = [];
      for (let k = i; k < Math.min(ARTICLES, i + 1000); k++) {
        const title = `${pick()} ${pick()} ${pick()} guide ${k}`;
        const text = Array.from({ length: 60 }, pick).join(' ');
        rows.push([
          newId(),
          tenantId,
          now,
          now,
          spaceId,
          title,
          `article-${k}`,
          'developer',
          'published',
          k,
          `# ${title}\n\n${text}`,
          text,
          text.slice(0, 280),
          now,
        ]);
      }
      await em.execute(
        `insert into knowledge_articles (id, tenant_id, created_at, updated_at, space_id, title, slug, kind, status, sort_order, content_markdown, body_text, excerpt, published_at) values ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        rows.flat(),
      );
    }
    await em.execute('analyze knowledge_articles');
    // The set-up's writes are flushed now, not by a checkpoint during the measurement (needs a superuser; skipped otherwise).
    await em.execute('checkpoint').catch(() => undefined);
    const setupSeconds = (performance.now() - t) / 1000;

    const queries = [
      ...Array.from({ length: 10 }, () => pick()),
      ...Array.from({ length: 5 }, () => `${pick()} ${pick()}`),
      ...Array.from({ length: 5 }, () => pick().replace(/(\D)(\D)/, '$2$1')),
    ];
    const searches = {
      url: app.url,
      connections: CONNECTIONS,
      headers,
      requests: queries.map((q) => ({
        method: 'GET' as const,
        path: `/api/knowledge/search?q=${encodeURIComponent(q)}`,
      })),
    };
    // Not measured: a running dyno has its statements prepared on every pooled connection and its recurring answers cached.
    await load({ ...searches, duration: 3 });
    // PostgreSQL's CPU per request of a load: its backends' CPU time over the load, over the requests served.
    const withPostgresCpu = async (options: Parameters<typeof load>[0]) => {
      const before = await postgresCpuUs(em);
      const result = await load(options);
      const after = await postgresCpuUs(em);
      if (!before || !after) return result;
      let used = 0;
      for (const [pid, us] of after) used += us - (before.get(pid) ?? 0);
      return { ...result, postgresCpuUsPerRequest: Math.round(used / Math.max(1, result.requestsPerSecond * SECONDS)) };
    };
    const search = await withPostgresCpu({ ...searches, duration: SECONDS });
    const words = [...vocabulary].sort(() => random() - 0.5).slice(0, 1400); // one argument of the load child: < 128 KB
    const uncached = await withPostgresCpu({
      url: app.url,
      connections: CONNECTIONS,
      duration: SECONDS,
      headers,
      requests: words.map((q) => ({
        method: 'GET',
        path: `/api/knowledge/search?q=${encodeURIComponent(q)}&limit=19`,
      })),
    });
    const health = await load({ url: `${app.url}/health`, connections: CONNECTIONS, duration: SECONDS });
    const article = await load({
      url: `${app.url}/api/knowledge/public/spaces/${slug}/articles/article-${Math.floor(ARTICLES / 2)}`,
      connections: CONNECTIONS,
      duration: SECONDS,
    });
    // One search nobody asked before (not cached): its whole HTTP time, the database's share included.
    t = performance.now();
    const one = await fetch(`${app.url}/api/knowledge/search?q=${encodeURIComponent(`${pick()} ${pick()}`)}&limit=18`, {
      headers,
    });
    const hits = ((await one.json()) as { items: unknown[] }).items.length;
    const round = (n: number, d = 2) => +n.toFixed(d);

    report('knowledge', {
      articles: ARTICLES,
      connections: CONNECTIONS,
      secondsPerLoad: SECONDS,
      setupSeconds: round(setupSeconds, 1),
      memberSearch: { ...search, target: 'p95 <= 50 ms (p99 shown is an upper bound of p95)' },
      memberSearchUncached: {
        ...uncached,
        hitsOfOneUncachedQuery: hits,
        singleUncachedQueryMs: round(performance.now() - t, 1),
      },
      health,
      publicArticle: {
        ...article,
        p50xHealth: round(article.p50Ms / Math.max(0.01, health.p50Ms), 1),
        rpsVsHealth: round(article.requestsPerSecond / Math.max(1, health.requestsPerSecond), 2),
      },
    });
  } finally {
    await app.close();
  }
}

void runBenchmark(main);
