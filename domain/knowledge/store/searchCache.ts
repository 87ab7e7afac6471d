import type { Services } from '../../services';

/**
 * A small result cache of knowledge search. A ranked full-text query over a large organisation costs a few ms of
 * PostgreSQL CPU (every candidate's tsvector ranked, snippets built); the same questions come back often (a help
 * centre's search box, the same member refining a query), so each dyno keeps the last answers in memory.
 *
 * Correctness: an entry is keyed by the organisation, its search version, and everything that shapes the answer
 * (query, page size, space, status filter, whether the caller sees unpublished articles). Every committed write
 * that can change a search answer (articles, their status, collections, spaces) increments the organisation's
 * version in Redis (bumpSearchVersion), so every dyno stops using older entries at once: an answer computed from
 * data read before a write is stored under the version read before it, which no later search asks for. A Redis
 * failure skips the cache (the query runs) and a lost bump is bounded by the entry's lifetime (TTL_MS).
 */
const MAX_ENTRIES = 1000;
const TTL_MS = 30_000;

interface Entry<T> {
  at: number;
  value: T;
}

const caches = new WeakMap<Services, Map<string, Entry<unknown>>>();
const versionKey = (services: Services, tenantId: string) => services.key('kb', 'search-version', tenantId);

/** Remembers a value under the organisation's current search version (what the version covers may change it). */
export type Memo = <U>(key: string, compute: () => Promise<U>) => Promise<U>;

/**
 * The answer of `compute` for this organisation and key, from the cache while its search version holds. `compute`
 * gets a memo under the same version for what the answer is built from (e.g. the languages of the spaces in scope),
 * so an uncached search does not read it again either.
 */
export async function cachedSearch<T>(
  services: Services,
  tenantId: string,
  key: string,
  compute: (memo: Memo) => Promise<T>,
): Promise<T> {
  let version: string | null;
  try {
    version = (await services.redis.get(versionKey(services, tenantId))) ?? '0';
  } catch {
    return compute((_, uncached) => uncached());
  }
  let cache = caches.get(services);
  if (!cache) caches.set(services, (cache = new Map()));
  const entries = cache;
  const memo: Memo = (k, computeValue) => remember(entries, `${tenantId}|${version}|${k}`, computeValue);
  return memo(`search|${key}`, () => compute(memo));
}

async function remember<T>(cache: Map<string, Entry<unknown>>, full: string, compute: () => Promise<T>): Promise<T> {
  const hit = cache.get(full);
  if (hit && Date.now() - hit.at < TTL_MS) {
    // Least recently used goes first: a hit moves to the end of the Map's order.
    cache.delete(full);
    cache.set(full, hit);
    return hit.value as T;
  }
  const value = await compute();
  cache.delete(full);
  cache.set(full, { at: Date.now(), value });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
  return value;
}

/** After a committed write that can change what a search of the organisation answers. Best effort (see above). */
export async function bumpSearchVersion(services: Services, tenantId: string): Promise<void> {
  try {
    await services.redis.incr(versionKey(services, tenantId));
  } catch (err) {
    services.logger.warn(
      { err: (err as Error).message, tenantId },
      'knowledge search version not bumped: cached answers live until their TTL',
    );
  }
}
