import { ScimToken } from '../../../entities/identity/scim';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { revokeScimTokens } from '../store/scim';
import { generateScimToken } from './scimToken';

export interface IssuedScimToken {
  row: ScimToken;
  /** The secret itself: returned this once, never stored (only its SHA-256 is). */
  token: string;
  /** Whether it replaced a token, which stopped working at once. */
  rotated: boolean;
}

/**
 * Issues the organisation's SCIM bearer token (the caller holds org.manage, checked by memberContext). An
 * organisation has one: issuing while one exists rotates it (the previous one is refused from the next request
 * on). Audited `scim.token_created` or `scim.token_rotated`, never the secret.
 */
export async function issueScimToken(ctx: TenantContext, props: { ip?: string | null }): Promise<IssuedScimToken> {
  const { token, hash } = generateScimToken();
  return ctx.em.transactional(async (tx) => {
    const rotated = (await revokeScimTokens(tx, new Date())) > 0;
    const row = tx.create(ScimToken, {
      tenantId: ctx.tenantId,
      secretHash: hash,
      createdById: ctx.userId,
      lastUsedAt: null,
      revokedAt: null,
    });
    audit(tx, {
      action: rotated ? 'scim.token_rotated' : 'scim.token_created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'scim_token',
      targetId: row.id,
      ip: props.ip,
    });
    return { row, token, rotated };
  });
}
