import { newId } from '../../entities/base';
import type { Services } from '../services';
import { statsKeys } from './analytics';

/** Bound of one flush: past it another run may start (a flush takes milliseconds). */
const FLUSH_LOCK_MS = 5 * 60_000;

/**
 * Moves the Redis counters into the statistics tables. Each hash is renamed aside first (atomic), so views
 * counted while the job runs go to a fresh hash and nothing is counted twice; unique readers are read from the
 * HyperLogLogs (an absolute count of the day, kept with greatest()). The counts are dropped from Redis only once
 * the rows committed: a failed flush leaves them aside, and the next run writes them first. One run at a time
 * (a Redis lock), so no two runs write the same counts. Returns the rows written.
 */
export async function flushKnowledgeStats(services: Services): Promise<number> {
  const keys = statsKeys(services);
  const lock = services.key('kb', 'flush-lock');
  if (!(await services.redis.set(lock, '1', 'PX', FLUSH_LOCK_MS, 'NX'))) return 0;
  try {
    const [views, misses] = [await takeHash(services, keys.views), await takeHash(services, keys.misses)];
    const fields = [...new Set([...Object.keys(views.values), ...(await services.redis.smembers(keys.readerSets))])];
    const readers = await Promise.all(fields.map((field) => services.redis.pfcount(keys.hll(field))));
    await services.orm.em.fork().transactional(async (em) => {
      for (const [i, field] of fields.entries()) {
        const [tenantId, spaceId, article, day] = field.split('|');
        await em.execute(
          `insert into knowledge_daily_stats (id, tenant_id, created_at, space_id, article_id, day, views, readers) values (?, ?, now(), ?, ?, ?, ?, ?)
           on conflict (tenant_id, space_id, day, coalesce(article_id, '00000000-0000-0000-0000-000000000000')) do update set views = knowledge_daily_stats.views + excluded.views, readers = greatest(knowledge_daily_stats.readers, excluded.readers)`,
          [newId(), tenantId, spaceId, article === '-' ? null : article, day, Number(views.values[field] ?? 0), readers[i]],
        );
      }
      for (const [field, count] of Object.entries(misses.values)) {
        const [tenantId, spaceId, day, ...rest] = field.split('|');
        await em.execute(
          `insert into knowledge_search_misses (id, tenant_id, created_at, space_id, day, query, count) values (?, ?, now(), ?, ?, ?, ?)
           on conflict (tenant_id, space_id, day, query) do update set count = knowledge_search_misses.count + excluded.count`,
          // PostgreSQL text cannot hold NUL: dropped, so one odd query never blocks the flush it is part of.
          [newId(), tenantId, spaceId, day, rest.join('|').replaceAll('\0', ''), Number(count)],
        );
      }
    });
    await services.redis.del(views.taken, misses.taken);
    if (fields.length) await services.redis.srem(keys.readerSets, ...fields);
    return fields.length + Object.keys(misses.values).length;
  } finally {
    await services.redis.del(lock);
  }
}

/**
 * The counts of a hash, renamed aside until they are written. A leftover of a failed run is taken as it is
 * (new counts wait in the hash for the next run).
 */
async function takeHash(services: Services, key: string): Promise<{ taken: string; values: Record<string, string> }> {
  const taken = `${key}:flushing`;
  try {
    await services.redis.renamenx(key, taken);
  } catch (err) {
    if (!/no such key/i.test((err as Error).message)) throw err; // nothing counted since the last flush
  }
  return { taken, values: await services.redis.hgetall(taken) };
}
