import { badRequest } from '../../../lib/errors';
import { hashToken } from '../../../lib/tokens';
import type { Services } from '../../services';
import { saveSsoAttempt, takeSsoAttempt, type SsoAttempt } from '../store/sso';

/** A sign-in attempt between the redirect and the callback, keyed by the hash of its `state` (Redis, single use). */

export const stateInvalid = () =>
  badRequest('sso_state_invalid', 'This sign-in attempt is unknown, expired or already used; start again');

/** Remembers an attempt for SSO_STATE_TTL_SECONDS. */
export async function recordSsoAttempt(services: Services, attempt: SsoAttempt): Promise<void> {
  const state = attempt.checks.state;
  if (typeof state !== 'string' || !state) throw new Error('A sign-in attempt without a state');
  await saveSsoAttempt(
    services.redis,
    services.key,
    hashToken(state),
    attempt,
    services.config.SSO_STATE_TTL_SECONDS * 1000,
  );
}

/** The attempt of a callback's `state`, used up; 400 `sso_state_invalid` when there is none (unknown, expired, replayed). */
export async function takeSsoAttemptOf(services: Services, state: string | undefined): Promise<SsoAttempt> {
  const attempt = state ? await takeSsoAttempt(services.redis, services.key, hashToken(state)) : null;
  if (!attempt) throw stateInvalid();
  return attempt;
}
