import type { AccessClaims } from '../../lib/tokens';
import type { Services } from '../services';
import { memberContext } from './memberContext';
import { moveSession, type DeviceInfo, type TokenPair } from './sessions';

export interface SwitchOrganizationProps {
  /** Claims of the access token presented: its session moves, its jti is revoked. */
  claims: AccessClaims;
  /** The organisation to work in; the caller must be a member (else 404). */
  organizationId: string;
  device?: DeviceInfo;
}

/**
 * Makes another organisation the active one: a new token pair whose tenantId is that organisation, for the
 * same session (later refreshes stay there). The access token used for the switch is revoked at once.
 */
export async function switchOrganization(services: Services, props: SwitchOrganizationProps): Promise<TokenPair> {
  const { claims } = props;
  await memberContext(services, props.organizationId, claims.userId);
  const pair = await moveSession(services, services.orm.em.fork(), claims.sid, props.organizationId, props.device);
  await services.revocations.revokeToken(claims);
  return pair;
}
