import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { Services } from '../services';
import { SignInCounters, type SignInLimits, type SignInRefusal } from './store/signInThrottle';

/** Window of every sign-in failure count: a count ends this long after its first failure. */
export const SIGNIN_FAILURE_WINDOW_SECONDS = 900;

const REFUSALS: Record<Exclude<SignInRefusal, 0>, string> = {
  1: 'Too many failed sign-ins from this address',
  2: 'Too many failed sign-ins for this account from this address',
  3: 'Too many failed sign-ins for this account',
};

/** The throttle's limits, from the configuration. */
export const signInLimits = (
  config: Pick<
    Config,
    | 'SIGNIN_FAILURES_PER_ADDRESS'
    | 'SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS'
    | 'SIGNIN_FAILURES_BEFORE_DELAY'
    | 'SIGNIN_DELAY_MAX_SECONDS'
  >,
): SignInLimits => ({
  windowMs: SIGNIN_FAILURE_WINDOW_SECONDS * 1000,
  perAddress: config.SIGNIN_FAILURES_PER_ADDRESS,
  perAccountAddress: config.SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS,
  beforeDelay: config.SIGNIN_FAILURES_BEFORE_DELAY,
  maxDelayMs: config.SIGNIN_DELAY_MAX_SECONDS * 1000,
});

/** The 429 of a refused attempt: what was over its limit, and Retry-After in whole seconds (at least the wait). */
export function signInRefused(refusal: Exclude<SignInRefusal, 0>, waitMs = 1000): AppError {
  const seconds = Math.ceil(waitMs / 1000);
  return new AppError(429, 'rate_limited', `${REFUSALS[refusal]}; retry in ${seconds} s`, undefined, {
    'Retry-After': String(seconds),
  });
}

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
export async function admitPasswordAttempt(
  services: Services,
  who: { account: string; address: string },
): Promise<PasswordAttempt> {
  const counters = new SignInCounters(services.redis, services.key, who);
  const { refusal, waitMs } = await counters.admit(signInLimits(services.config));
  if (refusal) throw signInRefused(refusal, waitMs);
  return { succeeded: () => counters.release(true), abandoned: () => counters.release(false) };
}
