import type { RedisClient } from '../../../lib/redis';
import type { Keyspace } from '../../../lib/redis';

/** The sign-in throttle's counters in Redis (domain/identity/admitPasswordAttempt.ts holds the rule). */

/** Why an attempt was refused: 0 admitted; 1 the address, 2 (account, address), 3 the account's delay. */
export type SignInRefusal = 0 | 1 | 2 | 3;

export interface SignInLimits {
  /** Window of every count: a count ends this long after its first failure. */
  windowMs: number;
  perAddress: number;
  perAccountAddress: number;
  /** Failures of an account before its progressive delay starts. */
  beforeDelay: number;
  maxDelayMs: number;
}

/**
 * Admission of one password attempt, atomically (parallel guesses are counted before any is answered).
 * KEYS: failures of the address, of (account, address), of the account, the account's delay slot.
 * ARGV: window ms, address limit, (account, address) limit, account failures before the delay, maximum delay ms.
 * An admitted attempt counts as a failure in the three counts at once; a right password takes it back.
 * Returns {0} when admitted, else {refusal, ms to wait}.
 */
const ADMIT = `
local function count(key) return tonumber(redis.call('GET', key) or '0') end
local function wait(key) return math.max(redis.call('PTTL', key), 1000) end
if count(KEYS[1]) >= tonumber(ARGV[2]) then return {1, wait(KEYS[1])} end
local pair = count(KEYS[2])
if pair >= tonumber(ARGV[3]) then return {2, wait(KEYS[2])} end
local over = count(KEYS[3]) - tonumber(ARGV[4])
if pair > 0 and over >= 0 then
  local delay = math.min(1000 * 2 ^ math.min(over, 30), tonumber(ARGV[5]))
  if not redis.call('SET', KEYS[4], '1', 'PX', delay, 'NX') then return {3, wait(KEYS[4])} end
end
for i = 1, 3 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[1]) end
end
return {0}`;

/** Takes an admitted attempt back out of the counts (never below zero); ARGV[1] = '1' also clears (account, address). */
const RELEASE = `
for i = 1, 3 do
  if i == 2 and ARGV[1] == '1' then redis.call('DEL', KEYS[2])
  elseif tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 0`;

/** The counters of one attempt: the address's, (account, address)'s, the account's and its delay slot. */
export class SignInCounters {
  private readonly keys: string[];

  constructor(
    private readonly redis: Pick<RedisClient, 'eval'>,
    key: Keyspace,
    who: { account: string; address: string },
  ) {
    this.keys = [
      key('signin', 'addr', who.address),
      key('signin', 'pair', who.account, who.address),
      key('signin', 'acct', who.account),
      key('signin', 'slot', who.account),
    ];
  }

  /** Counts the attempt as a failure unless a limit refuses it; the refusal and how long to wait (ms). */
  async admit(limits: SignInLimits): Promise<{ refusal: SignInRefusal; waitMs?: number }> {
    const [refusal, waitMs] = (await this.redis.eval(
      ADMIT,
      this.keys.length,
      ...this.keys,
      limits.windowMs,
      limits.perAddress,
      limits.perAccountAddress,
      limits.beforeDelay,
      limits.maxDelayMs,
    )) as [SignInRefusal, number?];
    return { refusal, waitMs };
  }

  /** Takes an admitted attempt back; `clearPair` also starts (account, address) again from zero. */
  async release(clearPair: boolean): Promise<void> {
    await this.redis.eval(RELEASE, 3, this.keys[0], this.keys[1], this.keys[2], clearPair ? '1' : '0');
  }
}
