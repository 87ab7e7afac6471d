import type { Services } from '../services';

/**
 * After a membership is gone (committed): the member's tokens for the organisation stop working on every instance
 * at once (lib/revocation.ts, kind `member`) and their cached permissions there are dropped. A refresh moves
 * their sessions to another organisation of theirs.
 */
export async function revokeMemberAccess(services: Services, tenantId: string, userId: string): Promise<void> {
  await Promise.all([
    services.revocations.revokeMembership(tenantId, userId),
    services.permissions.invalidate(tenantId, userId),
  ]);
}
