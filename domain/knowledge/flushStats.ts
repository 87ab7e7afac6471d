import { newId } from '../../entities/base';
import type { Services } from '../services';
import { statsKeys } from './analytics';

/** Bound of one flush: past it another run may start (a flush takes milliseconds). */
const FLUSH_LOCK_MS = 5 * 60_000;
/** How long a generation written is remembered: far beyond the next run, which drops its hash from Redis. */
const GENERATIONS_KEPT = '30 days';
/** The field of a hash set aside that holds its generation id (counted fields start with a tenant id). */
const GENERATION_FIELD = '#generation';

/**
 * Moves the Redis counters into the statistics tables, exactly once. Each hash is renamed aside first (atomic),
 * so views counted while the job runs go to a fresh hash, and the hash aside is given a generation id. The
 * counts are added in one transaction that also records the generations (knowledge_stats_flushes); a
 * generation already recorded adds nothing. The hashes are dropped from Redis only once the transaction
 * committed: a failed flush leaves them aside and the next run writes them first, and a flush that committed
 * but could not drop them (a crash or a Redis error right after the commit) leaves them to a next run that
 * finds their generation written and only drops them. Unique readers are read from the HyperLogLogs (an
 * absolute count of the day, kept with greatest(), so writing them again changes nothing). One run at a time (a
 * Redis lock that only its owner releases), so no two runs write the same counts. Returns the rows written.
 */
export async function flushKnowledgeStats(services: Services): Promise<number> {
  const keys = statsKeys(services);
  const lock = services.key('kb', 'flush-lock');
  const owner = newId();
  if (!(await services.redis.set(lock, owner, 'PX', FLUSH_LOCK_MS, 'NX'))) return 0;
  try {
    const [views, misses] = [await takeHash(services, keys.views), await takeHash(services, keys.misses)];
    const fields = [...new Set([...Object.keys(views.values), ...(await services.redis.smembers(keys.readerSets))])];
    const readers = await Promise.all(fields.map((field) => services.redis.pfcount(keys.hll(field))));
    const written = await services.orm.em.fork().transactional(async (em) => {
      const generations = [views.generation, misses.generation].filter((g): g is string => g !== null);
      const fresh = new Set(
        generations.length
          ? (await em.execute<{ id: string }[]>(`insert into knowledge_stats_flushes (id, created_at) values ${generations.map(() => '(?, now())').join(', ')} on conflict do nothing returning id`, generations)).map((r) => r.id)
          : [],
      );
      // The counts of a generation already written are not added again; the readers are (greatest() keeps them).
      const viewCounts = views.generation && fresh.has(views.generation) ? views.values : {};
      const missCounts = misses.generation && fresh.has(misses.generation) ? misses.values : {};
      for (const [i, field] of fields.entries()) {
        const [tenantId, spaceId, article, day] = field.split('|');
        await em.execute(
          `insert into knowledge_daily_stats (id, tenant_id, created_at, space_id, article_id, day, views, readers) values (?, ?, now(), ?, ?, ?, ?, ?)
           on conflict (tenant_id, space_id, day, coalesce(article_id, '00000000-0000-0000-0000-000000000000')) do update set views = knowledge_daily_stats.views + excluded.views, readers = greatest(knowledge_daily_stats.readers, excluded.readers)`,
          [newId(), tenantId, spaceId, article === '-' ? null : article, day, Number(viewCounts[field] ?? 0), readers[i]],
        );
      }
      for (const [field, count] of Object.entries(missCounts)) {
        const [tenantId, spaceId, day, ...rest] = field.split('|');
        await em.execute(
          `insert into knowledge_search_misses (id, tenant_id, created_at, space_id, day, query, count) values (?, ?, now(), ?, ?, ?, ?)
           on conflict (tenant_id, space_id, day, query) do update set count = knowledge_search_misses.count + excluded.count`,
          // PostgreSQL text cannot hold NUL: dropped, so one odd query never blocks the flush it is part of.
          [newId(), tenantId, spaceId, day, rest.join('|').replaceAll('\0', ''), Number(count)],
        );
      }
      if (generations.length) await em.execute(`delete from knowledge_stats_flushes where created_at < now() - interval '${GENERATIONS_KEPT}'`);
      return fields.length + Object.keys(missCounts).length;
    });
    await services.redis.del(views.taken, misses.taken);
    if (fields.length) await services.redis.srem(keys.readerSets, ...fields);
    return written;
  } finally {
    await services.redis.eval(RELEASE, 1, lock, owner).catch((err: Error) => services.logger.warn({ err: err.message }, 'knowledge stats flush lock not released (it expires)'));
  }
}

/** Deletes the lock only if this run still holds it (past FLUSH_LOCK_MS another run may have taken it). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

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

/** The counts of a hash, set aside with their generation until they are written. */
async function takeHash(services: Services, key: string): Promise<{ taken: string; generation: string | null; values: Record<string, string> }> {
  const taken = `${key}:flushing`;
  const generation = (await services.redis.eval(TAKE, 2, key, taken, newId(), GENERATION_FIELD)) as string | null;
  if (!generation) return { taken, generation: null, values: {} };
  const { [GENERATION_FIELD]: _generation, ...values } = await services.redis.hgetall(taken);
  return { taken, generation, values };
}
