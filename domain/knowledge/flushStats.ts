import { newId } from '../../entities/base';
import type { Services } from '../services';
import {
  addDailyStat,
  addSearchMisses,
  dropFlushed,
  fieldsWithReaders,
  forgetOldGenerations,
  readersOf,
  recordGenerations,
  releaseFlushLock,
  statsKeys,
  takeFlushLock,
  takeHash,
} from './store/stats';

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
  const owner = newId();
  if (!(await takeFlushLock(services, owner))) return 0;
  try {
    const [views, misses] = [await takeHash(services, keys.views), await takeHash(services, keys.misses)];
    const fields = [...new Set([...Object.keys(views.values), ...(await fieldsWithReaders(services))])];
    const readers = await readersOf(services, fields);
    const written = await services.orm.em.fork().transactional(async (em) => {
      const generations = [views.generation, misses.generation].filter((g): g is string => g !== null);
      const fresh = await recordGenerations(em, generations);
      // The counts of a generation already written are not added again; the readers are (greatest() keeps them).
      const viewCounts = views.generation && fresh.has(views.generation) ? views.values : {};
      const missCounts = misses.generation && fresh.has(misses.generation) ? misses.values : {};
      for (const [i, field] of fields.entries()) {
        const [tenantId, spaceId, article, day] = field.split('|');
        await addDailyStat(em, {
          tenantId,
          spaceId,
          articleId: article === '-' ? null : article,
          day,
          views: Number(viewCounts[field] ?? 0),
          readers: readers[i],
        });
      }
      for (const [field, count] of Object.entries(missCounts)) {
        const [tenantId, spaceId, day, ...rest] = field.split('|');
        // PostgreSQL text cannot hold NUL: dropped, so one odd query never blocks the flush it is part of.
        await addSearchMisses(em, {
          tenantId,
          spaceId,
          day,
          query: rest.join('|').replaceAll('\0', ''),
          count: Number(count),
        });
      }
      if (generations.length) await forgetOldGenerations(em);
      return fields.length + Object.keys(missCounts).length;
    });
    await dropFlushed(services, [views.taken, misses.taken], fields);
    return written;
  } finally {
    await releaseFlushLock(services, owner).catch((err: Error) =>
      services.logger.warn({ err: err.message }, 'knowledge stats flush lock not released (it expires)'),
    );
  }
}
