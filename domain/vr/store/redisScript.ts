import type { RedisClient } from '../../../lib/redis';
import { createHash } from 'node:crypto';

/** EVALSHA with a fallback to EVAL when the server has not cached the script yet. */
const shas = new Map<string, string>();
export async function runScript(
  redis: RedisClient,
  script: string,
  keys: string[],
  args: (string | number)[],
): Promise<unknown> {
  let sha = shas.get(script);
  if (!sha) shas.set(script, (sha = createHash('sha1').update(script).digest('hex')));
  try {
    return await redis.evalsha(sha, keys.length, ...keys, ...args);
  } catch (err) {
    if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
    return redis.eval(script, keys.length, ...keys, ...args);
  }
}
