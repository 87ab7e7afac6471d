import { AppError } from '../../lib/errors';
import type { Services } from '../services';

/** Window of every sign-in failure count: a count ends this long after its first failure. */
export const SIGNIN_FAILURE_WINDOW_SECONDS = 900;

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

const REFUSALS = ['', 'Too many failed sign-ins from this address', 'Too many failed sign-ins for this account from this address', 'Too many failed sign-ins for this account'];

export interface PasswordAttempt {
  /** The password was right: the attempt is no failure, and (account, address) starts again from zero. */
  succeeded(): Promise<void>;
  /** The attempt ended without telling whether the password was right (e.g. PostgreSQL down): not counted. */
  abandoned(): Promise<void>;
}

/**
 * Throttles password checks as OWASP's Authentication Cheat Sheet advises, without a lock a stranger controls;
 * only failures count, so a classroom behind one address signs in freely:
 *   - per address, whatever the account (SIGNIN_FAILURES_PER_ADDRESS): one address spraying many accounts;
 *   - per (account, address) (SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS): one address guessing one password;
 *   - per account, a progressive delay past SIGNIN_FAILURES_BEFORE_DELAY: an address that failed on the account
 *     waits 1 s, 2 s, 4 s ... (at most SIGNIN_DELAY_MAX_SECONDS) between attempts, shared by all such
 *     addresses, so guesses spread over many addresses slow down too; an address that has not failed on
 *     the account is never delayed, so its owner signs in from their own device whatever strangers do.
 * Over a limit the attempt is refused before any check (429 `rate_limited`, Retry-After): a refused guess
 * learns nothing. Counted in Redis, shared by every dyno, in windows of SIGNIN_FAILURE_WINDOW_SECONDS.
 * `account` is the normalised e-mail (known or not: the answer must not tell), `address` the client's.
 */
export async function admitPasswordAttempt(services: Services, who: { account: string; address: string }): Promise<PasswordAttempt> {
  const { config, redis } = services;
  const keys = [
    services.key('signin', 'addr', who.address),
    services.key('signin', 'pair', who.account, who.address),
    services.key('signin', 'acct', who.account),
    services.key('signin', 'slot', who.account),
  ];
  const [refusal, waitMs] = (await redis.eval(
    ADMIT,
    keys.length,
    ...keys,
    SIGNIN_FAILURE_WINDOW_SECONDS * 1000,
    config.SIGNIN_FAILURES_PER_ADDRESS,
    config.SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS,
    config.SIGNIN_FAILURES_BEFORE_DELAY,
    config.SIGNIN_DELAY_MAX_SECONDS * 1000,
  )) as [number, number?];
  if (refusal) {
    const seconds = Math.ceil((waitMs ?? 1000) / 1000);
    throw new AppError(429, 'rate_limited', `${REFUSALS[refusal]}; retry in ${seconds} s`, undefined, { 'Retry-After': String(seconds) });
  }
  const release = async (clearPair: boolean) => {
    await redis.eval(RELEASE, 3, keys[0], keys[1], keys[2], clearPair ? '1' : '0');
  };
  return { succeeded: () => release(true), abandoned: () => release(false) };
}
