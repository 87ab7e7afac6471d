import type { Services } from '../../services';
import { revokeMemberAccess } from '../revokeMemberAccess';

/**
 * After a committed changeScimMembership: a deprovisioned account's tokens for the organisation stop working on
 * every instance (the path of a removed member); a joined one's cached permissions are dropped.
 */
export async function settleScimMembership(
  services: Services,
  tenantId: string,
  userId: string,
  change: 'joined' | 'left' | null,
): Promise<void> {
  if (change === 'left') await revokeMemberAccess(services, tenantId, userId);
  else if (change === 'joined') await services.permissions.invalidate(tenantId, userId);
}
