import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { SsoDomain } from '../../../entities/identity/sso';
import { conflict, invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { ssoDomainNamed, verifiedSsoDomain } from '../store/sso';
import { newProofToken, normalizeDomain } from './ssoRules';

/** An organisation claims at most this many domains. */
export const MAX_SSO_DOMAINS = 50;

/**
 * Claims an e-mail domain for the organisation (the caller holds org.manage): answers the TXT record to publish.
 * 409 `sso_domain_claimed` when the organisation claims it already, `sso_domain_taken` when another organisation has
 * verified it. Audited `sso.domain_claimed`.
 */
export async function claimSsoDomain(
  ctx: TenantContext,
  props: { domain: string; ip?: string | null },
): Promise<SsoDomain> {
  const domain = normalizeDomain(props.domain);
  if (!domain) throw invalidField('domain', 'must be a domain name such as example.com');
  if (await ssoDomainNamed(ctx.em, domain)) throw conflict('sso_domain_claimed', `${domain} is claimed already`);
  if (await verifiedSsoDomain(ctx.em, domain))
    throw conflict('sso_domain_taken', `${domain} is verified by another organisation`);
  if ((await ctx.em.count(SsoDomain, {})) >= MAX_SSO_DOMAINS)
    throw conflict('sso_domains_exhausted', `An organisation claims at most ${MAX_SSO_DOMAINS} domains`);
  try {
    return await ctx.em.transactional(async (tx) => {
      const row = tx.create(SsoDomain, {
        tenantId: ctx.tenantId,
        domain,
        token: newProofToken(),
        verifiedAt: null,
        createdById: ctx.userId,
      });
      audit(tx, {
        action: 'sso.domain_claimed',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'sso_domain',
        targetId: row.id,
        ip: props.ip,
        data: { domain },
      });
      return row;
    });
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw conflict('sso_domain_claimed', `${domain} is claimed already`);
    throw err;
  }
}
