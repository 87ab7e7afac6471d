import type { Em } from '../../lib/db';
import { forbidden, unauthorized } from '../../lib/errors';
import type { AccessClaims } from '../../lib/tokens';
import type { Services } from '../services';
import { audit } from '../platform/audit';
import { memberContext } from './memberContext';
import { issuePair, type DeviceInfo, type TokenPair } from './sessions';
import { lockSession } from './store/sessions';
import { hasSecondFactor } from './store/mfa';
import { requiresMfa } from './store/memberships';

export interface SwitchOrganizationProps {
  /** Claims of the access token presented: its session gets a pair for the other organisation. */
  claims: AccessClaims;
  /** The organisation to work in; the caller must be a member (else 404). */
  organizationId: string;
  device?: DeviceInfo;
}

/**
 * Makes another organisation the active one: a new token pair whose tenantId is that organisation, for the
 * same session (its refreshes stay there). Nothing else of the session is touched, so a switch never signs
 * the user out elsewhere: other tabs (and sockets) sharing the session go on with their tokens in their
 * organisation. An organisation that requires a second factor is refused to an account without one (403
 * `mfa_enrolment_required`).
 */
export async function switchOrganization(services: Services, props: SwitchOrganizationProps): Promise<TokenPair> {
  const { claims } = props;
  const ctx = await memberContext(services, props.organizationId, claims.userId);
  if ((await requiresMfa(ctx.em, props.organizationId)) && !(await hasSecondFactor(ctx.em, claims.userId)))
    throw forbidden('mfa_enrolment_required', 'This organisation requires a second factor: enrol one first');
  return issueForOrganization(services, services.orm.em.fork(), claims.sid, props.organizationId, props.device);
}

/**
 * Issues a pair of a session for another organisation. The session's other refresh tokens are left as they
 * are: the device's other tabs stay signed in where they were, each token rotates on its own, and presenting
 * any used one again still ends the whole session (refreshSession).
 */
async function issueForOrganization(
  services: Services,
  em: Em,
  sessionId: string,
  tenantId: string,
  device: DeviceInfo = {},
): Promise<TokenPair> {
  return em.transactional(async (tx) => {
    const session = await lockSession(tx, sessionId);
    if (!session || session.revokedAt || session.expiresAt < new Date())
      throw unauthorized('token_revoked', 'This session has ended');
    audit(tx, {
      action: 'session.switched',
      actorId: session.user.id,
      tenantId,
      targetType: 'session',
      targetId: session.id,
      ip: device.ip,
      data: { from: session.tenantId },
    });
    session.tenantId = tenantId;
    session.lastUsedAt = new Date();
    return issuePair(services, tx, session, tenantId);
  });
}
