import type { Em } from '../../lib/db';
import type { RevocationStore } from '../../lib/revocation';
import type { Services } from '../services';
import { markOtherSessionsEnded, markSessionEnded, markUserSessionsEnded } from './store/sessions';

/** Ends a session: no refresh any more, and its access tokens are revoked at once on every dyno. */
export async function endSession(services: Services, em: Em, sessionId: string, reason: string): Promise<void> {
  await markSessionEnded(em, sessionId, reason);
  await services.revocations.revokeSession(sessionId);
}

/** Ends every session of a user but one (password change: the device that changed it stays signed in). */
export async function endOtherSessions(
  services: Services,
  em: Em,
  userId: string,
  keepSessionId: string,
  reason: string,
): Promise<void> {
  const ended = await markOtherSessionsEnded(em, userId, keepSessionId, reason);
  await Promise.all(ended.map((id) => services.revocations.revokeSession(id)));
}

/** Ends every session of a user (password reset, account disabled, log out everywhere). */
export async function endAllSessions(
  services: { revocations: Pick<RevocationStore, 'revokeUser'> },
  em: Em,
  userId: string,
  reason: string,
): Promise<void> {
  await markUserSessionsEnded(em, userId, reason);
  await services.revocations.revokeUser(userId);
}
