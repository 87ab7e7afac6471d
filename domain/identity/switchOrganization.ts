import type { AccessClaims } from '../../lib/tokens';
import type { Services } from '../services';
import { memberContext } from './memberContext';
import { issueForOrganization, type DeviceInfo, type TokenPair } from './sessions';

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
 * organisation.
 */
export async function switchOrganization(services: Services, props: SwitchOrganizationProps): Promise<TokenPair> {
  const { claims } = props;
  await memberContext(services, props.organizationId, claims.userId);
  return issueForOrganization(services, services.orm.em.fork(), claims.sid, props.organizationId, props.device);
}
