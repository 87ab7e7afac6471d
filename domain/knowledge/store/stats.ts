import { newId } from '../../../entities/base';
import { KnowledgeDailyStat } from '../../../entities/knowledge/subscriber';
import type { Em } from '../../../lib/db';
import { lean, preparedRead, type Lean, type LeanScope } from '../../../lib/lean';
import type { Services } from '../../services';

/**
 * The reading statistics' structures: Redis counters (a hash of views and one of searches without result, keyed
 * `<tenant>|<space>|<article or ->|<day>` and `<tenant>|<space>|<day>|<query>`, a HyperLogLog of readers per
 * field, the set of fields with readers), the flush's lock and hashes set aside, the statistics tables the flush
 * writes (see flushStats.ts for the rules) and the analytics reads.
 */
export const statsKeys = (services: Services) => ({
  views: services.key('kb', 'views'),
  misses: services.key('kb', 'misses'),
  readerSets: services.key('kb', 'readers'),
  hll: (field: string) => services.key('kb', 'hll', field),
});

const HLL_TTL_SECONDS = 3 * 86_400;

/** Views of one counter field: how many, and by which readers. */
export interface FieldViews {
  count: number;
  readers: Set<string>;
}

/** Views counted in memory (viewBuffer.ts), written in one transaction: each field's count and readers. */
export async function countViews(services: Services, views: Map<string, FieldViews>): Promise<void> {
  const keys = statsKeys(services);
  let tx = services.redis.multi();
  for (const [field, { count, readers }] of views) {
    tx = tx
      .hincrby(keys.views, field, count)
      .pfadd(keys.hll(field), ...readers)
      .expire(keys.hll(field), HLL_TTL_SECONDS);
  }
  await tx.sadd(keys.readerSets, ...views.keys()).exec();
}

export const countSearchMiss = (services: Services, field: string) =>
  services.redis.hincrby(statsKeys(services).misses, field, 1);

// --- The flush

/** Bound of one flush: past it another run may start (a flush takes milliseconds). */
const FLUSH_LOCK_MS = 5 * 60_000;
/** The field of a hash set aside that holds its generation id (counted fields start with a tenant id). */
const GENERATION_FIELD = '#generation';

const flushLock = (services: Services) => services.key('kb', 'flush-lock');

/** Takes the flush lock for `owner` unless another run holds it; whether it did. */
export const takeFlushLock = async (services: Services, owner: string): Promise<boolean> =>
  !!(await services.redis.set(flushLock(services), owner, 'PX', FLUSH_LOCK_MS, 'NX'));

/** Deletes the lock only if this run still holds it (past FLUSH_LOCK_MS another run may have taken it). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export const releaseFlushLock = (services: Services, owner: string) =>
  services.redis.eval(RELEASE, 1, flushLock(services), owner);

/**
 * Sets a hash of counts aside (KEYS[1] renamed to KEYS[2]) unless a leftover of a failed run is there (taken as
 * it is: new counts wait in KEYS[1] for the next run), and returns the generation id of the hash aside, given
 * now (ARGV[1]) if it has none yet; nil when there is nothing to flush.
 */
const TAKE = `if redis.call('EXISTS', KEYS[2]) == 0 then
  if redis.call('EXISTS', KEYS[1]) == 0 then return false end
  redis.call('RENAME', KEYS[1], KEYS[2])
end
local generation = redis.call('HGET', KEYS[2], ARGV[2])
if not generation then
  generation = ARGV[1]
  redis.call('HSET', KEYS[2], ARGV[2], generation)
end
return generation`;

export interface TakenCounts {
  /** The key of the hash aside, dropped once its counts are written. */
  taken: string;
  generation: string | null;
  values: Record<string, string>;
}

/** The counts of a hash, set aside with their generation until they are written. */
export async function takeHash(services: Services, key: string): Promise<TakenCounts> {
  const taken = `${key}:flushing`;
  const generation = (await services.redis.eval(TAKE, 2, key, taken, newId(), GENERATION_FIELD)) as string | null;
  if (!generation) return { taken, generation: null, values: {} };
  const { [GENERATION_FIELD]: _generation, ...values } = await services.redis.hgetall(taken);
  return { taken, generation, values };
}

/** The fields that counted readers (a view of a generation already written still has them). */
export const fieldsWithReaders = (services: Services) => services.redis.smembers(statsKeys(services).readerSets);

export const readersOf = (services: Services, fields: string[]): Promise<number[]> =>
  Promise.all(fields.map((field) => services.redis.pfcount(statsKeys(services).hll(field))));

/** Once written: the hashes aside dropped, the fields' readers no longer pending. */
export async function dropFlushed(services: Services, taken: string[], fields: string[]): Promise<void> {
  await services.redis.del(...taken);
  if (fields.length) await services.redis.srem(statsKeys(services).readerSets, ...fields);
}

/** How long a generation written is remembered: far beyond the next run, which drops its hash from Redis. */
const GENERATIONS_KEPT = '30 days';

/** Records the generations (knowledge_stats_flushes) and returns those not recorded before. */
export async function recordGenerations(em: Em, generations: string[]): Promise<Set<string>> {
  if (!generations.length) return new Set();
  const rows = await em.execute<{ id: string }[]>(
    `insert into knowledge_stats_flushes (id, created_at) values ${generations.map(() => '(?, now())').join(', ')} on conflict do nothing returning id`,
    generations,
  );
  return new Set(rows.map((r) => r.id));
}

export const forgetOldGenerations = (em: Em) =>
  em.execute(`delete from knowledge_stats_flushes where created_at < now() - interval '${GENERATIONS_KEPT}'`);

/** Adds views to a day's row of an article (or of the space: articleId null); readers keep the greatest count. */
export async function addDailyStat(
  em: Em,
  row: { tenantId: string; spaceId: string; articleId: string | null; day: string; views: number; readers: number },
): Promise<void> {
  await em.execute(
    `insert into knowledge_daily_stats (id, tenant_id, created_at, space_id, article_id, day, views, readers) values (?, ?, now(), ?, ?, ?, ?, ?)
     on conflict (tenant_id, space_id, day, coalesce(article_id, '00000000-0000-0000-0000-000000000000')) do update set views = knowledge_daily_stats.views + excluded.views, readers = greatest(knowledge_daily_stats.readers, excluded.readers)`,
    [newId(), row.tenantId, row.spaceId, row.articleId, row.day, row.views, row.readers],
  );
}

export async function addSearchMisses(
  em: Em,
  row: { tenantId: string; spaceId: string; day: string; query: string; count: number },
): Promise<void> {
  await em.execute(
    `insert into knowledge_search_misses (id, tenant_id, created_at, space_id, day, query, count) values (?, ?, now(), ?, ?, ?, ?)
     on conflict (tenant_id, space_id, day, query) do update set count = knowledge_search_misses.count + excluded.count`,
    [newId(), row.tenantId, row.spaceId, row.day, row.query, row.count],
  );
}

// --- Analytics: the space's own days (lean), then the sums PostgreSQL computes (preparedRead, the tenant bound as
// $1 in their text): the ten most viewed articles that still exist, the twenty most missed queries.

const spaceDaysStatement = lean(KnowledgeDailyStat, {
  columns: ['day', 'views', 'readers'],
  where: 'space_id = $1 and article_id is null and day between $2::date and $3::date',
  orderBy: 'day asc',
});
const topArticlesStatement = preparedRead<{ articleId: string; title: string; views: number; readers: number }>(
  `select s.article_id as "articleId", a.title, sum(s.views)::int as views, sum(s.readers)::int as readers
   from knowledge_daily_stats s join knowledge_articles a on a.id = s.article_id and a.tenant_id = s.tenant_id
   where s.tenant_id = $1 and s.space_id = $2 and s.article_id is not null and s.day between $3::date and $4::date
     and (not $5::boolean or a.status = 'published')
   group by s.article_id, a.title order by views desc, s.article_id limit 10`,
);
const missedQueriesStatement = preparedRead<{ query: string; count: number }>(
  `select query, sum(count)::int as count from knowledge_search_misses
   where tenant_id = $1 and space_id = $2 and day between $3::date and $4::date
   group by query order by count desc, query limit 20`,
);

export interface DayRange {
  from: string;
  to: string;
}

export const spaceDays = (
  scope: LeanScope,
  spaceId: string,
  { from, to }: DayRange,
): Promise<Pick<Lean<KnowledgeDailyStat>, 'day' | 'views' | 'readers'>[]> =>
  spaceDaysStatement.all(scope, spaceId, from, to);

/** `publishedOnly`: only articles published now. */
export const topArticles = (
  services: Services,
  tenantId: string,
  spaceId: string,
  { from, to }: DayRange,
  publishedOnly: boolean,
) => topArticlesStatement(services.orm, [tenantId, spaceId, from, to, publishedOnly]);

export const missedQueries = (services: Services, tenantId: string, spaceId: string, { from, to }: DayRange) =>
  missedQueriesStatement(services.orm, [tenantId, spaceId, from, to]);
