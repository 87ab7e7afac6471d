import { hashToken } from '../../../lib/tokens';
import { withoutTenant } from '../../../lib/lean';
import type { Services } from '../../services';
import { recordScimTokenUse, usableScimTokenByHash } from '../store/scim';
import { isScimTokenShaped, SCIM_TOKEN_USE_RESOLUTION_MS } from './scimToken';

/** Who a SCIM request comes from: an organisation's identity provider, through its token. */
export interface ScimPrincipal {
  tokenId: string;
  tenantId: string;
}

/**
 * The principal of a SCIM bearer token, or null when it is malformed, unknown, revoked, or its organisation is
 * suspended. One indexed read; the use is recorded at most once a minute, off the request path.
 */
export async function resolveScimToken(services: Services, secret: string): Promise<ScimPrincipal | null> {
  if (!isScimTokenShaped(secret)) return null;
  const row = await usableScimTokenByHash.one(withoutTenant(services), hashToken(secret));
  if (!row) return null;
  const now = new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= SCIM_TOKEN_USE_RESOLUTION_MS)
    void recordScimTokenUse(services.orm, row.id, now, new Date(now.getTime() - SCIM_TOKEN_USE_RESOLUTION_MS)).catch(
      (err: Error) => services.logger.warn({ err: err.message }, 'SCIM token use not recorded'),
    );
  return { tokenId: row.id, tenantId: row.tenantId };
}
