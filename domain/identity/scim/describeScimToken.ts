import type { ScimToken } from '../../../entities/identity/scim';
import type { TenantContext } from '../../context';
import { activeScimToken } from '../store/scim';

/** The organisation's unrevoked SCIM token (never its secret), or null when provisioning is off. */
export function describeScimToken(ctx: TenantContext): Promise<ScimToken | null> {
  return activeScimToken(ctx.em);
}
