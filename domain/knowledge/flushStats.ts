import { newId } from '../../entities/base';
import type { Services } from '../services';
import { statsKeys } from './analytics';

/**
 * Moves the Redis counters into the statistics tables. Each hash is renamed first (atomic), so views counted
 * while the job runs go to a fresh hash and nothing is counted twice or lost; unique readers are read from
 * the HyperLogLogs (an absolute count of the day, kept with greatest()). Returns the rows written.
 */
export async function flushKnowledgeStats(services: Services): Promise<number> {
  const keys = statsKeys(services);
  const em = services.orm.em.fork();
  let written = 0;

  const views = await takeHash(services, keys.views);
  const fields = new Set([...Object.keys(views), ...(await services.redis.smembers(keys.readerSets))]);
  if (fields.size) await services.redis.srem(keys.readerSets, ...fields);
  for (const field of fields) {
    const [tenantId, spaceId, article, day] = field.split('|');
    const readers = await services.redis.pfcount(keys.hll(field));
    await em.execute(
      `insert into knowledge_daily_stats (id, tenant_id, created_at, space_id, article_id, day, views, readers) values (?, ?, now(), ?, ?, ?, ?, ?)
       on conflict (space_id, day, coalesce(article_id, '00000000-0000-0000-0000-000000000000')) do update set views = knowledge_daily_stats.views + excluded.views, readers = greatest(knowledge_daily_stats.readers, excluded.readers)`,
      [newId(), tenantId, spaceId, article === '-' ? null : article, day, Number(views[field] ?? 0), readers],
    );
    written++;
  }

  const misses = await takeHash(services, keys.misses);
  for (const [field, count] of Object.entries(misses)) {
    const [tenantId, spaceId, day, ...rest] = field.split('|');
    await em.execute(
      `insert into knowledge_search_misses (id, tenant_id, created_at, space_id, day, query, count) values (?, ?, now(), ?, ?, ?, ?)
       on conflict (space_id, day, query) do update set count = knowledge_search_misses.count + excluded.count`,
      [newId(), tenantId, spaceId, day, rest.join('|'), Number(count)],
    );
    written++;
  }
  return written;
}

async function takeHash(services: Services, key: string): Promise<Record<string, string>> {
  const taken = `${key}:flushing:${newId()}`;
  try {
    await services.redis.rename(key, taken);
  } catch {
    return {}; // no such key: nothing counted since the last flush
  }
  const values = await services.redis.hgetall(taken);
  await services.redis.del(taken);
  return values;
}
