import type { AccessClaims } from '../../lib/tokens';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { endSession } from './endSession';

export interface LogoutProps {
  /** Claims of the access token presented. */
  claims: AccessClaims;
  ip?: string | null;
}

/**
 * Signs the session out: the access token's jti goes on the shared revocation list until it expires, and
 * the session ends (its refresh token and any other access token of it stop working on every instance).
 */
export async function logout(services: Services, props: LogoutProps): Promise<void> {
  const { claims } = props;
  const em = services.orm.em.fork();
  await services.revocations.revokeToken(claims);
  await endSession(services, em, claims.sid, 'logout');
  audit(em, {
    action: 'auth.logout',
    actorId: claims.userId,
    tenantId: claims.tenantId,
    targetType: 'session',
    targetId: claims.sid,
    ip: props.ip,
  });
  await em.flush();
}
