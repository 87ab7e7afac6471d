import { prose } from '../http/docs';

/** How sign-in is throttled (domain/identity/admitPasswordAttempt.ts), for the descriptions of the routes that sign in. */
export const SIGNIN_THROTTLING = prose`
  Throttling (429 \`rate_limited\` with Retry-After, as the OWASP Authentication Cheat Sheet advises), counting failures
  only, in 15-minute windows: SIGNIN_FAILURES_PER_ADDRESS per address whatever the account;
  SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS per (account, address), cleared by a success from there; past
  SIGNIN_FAILURES_BEFORE_DELAY failures of an account, an address that failed on it waits 1 s, 2 s, 4 s ... (at most
  SIGNIN_DELAY_MAX_SECONDS) between attempts, while an address that did not is never delayed: strangers cannot lock the
  owner out, and a classroom behind one address signs in freely. Over a limit the password is not checked. Every
  attempt, successful or not, also counts towards RATE_LIMIT_ANON_PER_MINUTE per address, a flood guard far above a
  classroom.
`;

export const SIGNIN_429 = prose`
  Too many failed sign-ins (\`rate_limited\`): failures counted by client address (SIGNIN_FAILURES_PER_ADDRESS); by
  account and client address (SIGNIN_FAILURES_PER_ACCOUNT_ADDRESS); by account (a progressive delay, never a lockout)
`;
