import { WorkGithubSettings } from '../../entities/work/github';
import type { Em } from '../../lib/db';
import { seal, unseal } from '../../lib/seal';
import { newOpaqueToken } from '../../lib/tokens';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import type { Services } from '../services';

const PURPOSE = 'work-github-webhook-secret';
const sealingKey = (services: Services) => services.deriveSecret(PURPOSE);

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
  const sealed = seal(sealingKey(ctx.services), PURPOSE, secret);
  const settings = await ctx.em.transactional(async (em) => {
    // Two first settings at once would both insert the organisation's one row (the second a 409 the route does not declare).
    await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`work_github:${ctx.tenantId}`]);
    const existing = await em.findOne(WorkGithubSettings, { tenantId: ctx.tenantId });
    const rotated = !!existing;
    const row = existing ?? em.create(WorkGithubSettings, { tenantId: ctx.tenantId, secretSealed: sealed, rotatedAt: new Date() });
    Object.assign(row, { secretSealed: sealed, rotatedAt: new Date(), rotatedBy: ctx.userId });
    audit(em, { action: rotated ? 'work.github_secret_rotated' : 'work.github_secret_set', actorId: ctx.userId, tenantId: ctx.tenantId, targetType: 'organization', targetId: ctx.tenantId, data: {} });
    return row;
  });
  return { settings, secret };
}

/** The organisation's settings, or null when no secret was ever set. */
export const findGithubSettings = (ctx: TenantContext) => ctx.em.findOne(WorkGithubSettings, { tenantId: ctx.tenantId });

/** The organisation's webhookSecret in clear, or null when none is set (a webhook for it is an unknown source). */
export async function githubSecretOf(services: Services, em: Em, tenantId: string): Promise<string | null> {
  const row = await em.findOne(WorkGithubSettings, { tenantId }, { filters: { tenant: false }, fields: ['secretSealed'] });
  return row ? unseal(sealingKey(services), PURPOSE, row.secretSealed) : null;
}
