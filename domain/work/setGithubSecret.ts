import { WorkGithubSettings } from '../../entities/work/github';
import { newOpaqueToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { sealGithubSecret } from './githubSecret';
import { findGithubSettings, lockGithubSettings } from './store';

export interface SetGithubSecretProps {
  /** The secret to use (as typed into GitHub's webhook form); a random one when left out. */
  secret?: string;
}

export interface GithubSecretSet {
  settings: WorkGithubSettings;
  /** The secret in clear: returned this once (it is stored sealed). */
  secret: string;
}

/**
 * Sets or rotates the organisation's GitHub webhookSecret. The new secret applies at once: a delivery
 * signed with the previous one is refused (403) from then on, so paste it into GitHub right after.
 */
export async function setGithubSecret(ctx: TenantContext, props: SetGithubSecretProps): Promise<GithubSecretSet> {
  const secret = props.secret ?? newOpaqueToken(32);
  const sealed = sealGithubSecret(ctx.services, secret);
  const settings = await ctx.em.transactional(async (em) => {
    // Two first settings at once would both insert the organisation's one row (the second a 409 the route does not declare).
    await lockGithubSettings(em, ctx.tenantId);
    const existing = await findGithubSettings(em, ctx.tenantId);
    const rotated = !!existing;
    const row =
      existing ??
      em.create(WorkGithubSettings, { tenantId: ctx.tenantId, secretSealed: sealed, rotatedAt: new Date() });
    Object.assign(row, { secretSealed: sealed, rotatedAt: new Date(), rotatedBy: ctx.userId });
    audit(em, {
      action: rotated ? 'work.github_secret_rotated' : 'work.github_secret_set',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'organization',
      targetId: ctx.tenantId,
      data: {},
    });
    return row;
  });
  return { settings, secret };
}
