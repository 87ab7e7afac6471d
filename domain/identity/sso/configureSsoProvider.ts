import { Role } from '../../../entities/identity/organization';
import { SsoProvider } from '../../../entities/identity/sso';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { OWNER_ROLE } from '../members';
import { ssoProviderOf } from '../store/sso';
import { openClientSecret, sealClientSecret } from './clientSecret';
import { discoverIssuer } from './oidcClient';
import { normalizeIssuer } from './ssoRules';

export interface SsoProviderInput {
  issuer: string;
  clientId: string;
  /** Write-only: required when the organisation has no provider yet; absent keeps the stored one. */
  clientSecret?: string;
  defaultRole: string;
  enabled: boolean;
  enforced: boolean;
}

/**
 * Sets the organisation's OpenID provider (the caller holds org.manage, checked by memberContext): the issuer is
 * discovered before anything is saved (422 `sso_discovery_failed` for an unreachable issuer or a document naming
 * another one), the default role must be one of the organisation's, never `owner`. Audited `sso.provider_created` or
 * `sso.provider_updated` with the fields that changed (never the secret, only whether it changed).
 */
export async function configureSsoProvider(
  ctx: TenantContext,
  input: SsoProviderInput,
  props: { ip?: string | null },
): Promise<{ provider: SsoProvider; created: boolean }> {
  const { services } = ctx;
  const issuer = normalizeIssuer(input.issuer, services.config.SSO_ALLOW_INSECURE_ISSUERS === 'true');
  if (!issuer) throw invalidField('issuer', 'must be an https URL without query, fragment or credentials');
  if (input.defaultRole === OWNER_ROLE)
    throw invalidField('defaultRole', 'members provisioned on first sign-in cannot be owners');
  if (!(await ctx.em.findOne(Role, { key: input.defaultRole })))
    throw invalidField('defaultRole', 'must be the key of a role of the organisation');
  const existing = await ssoProviderOf(ctx.em);
  const stored = existing?.clientSecretSealed;
  if (!stored && !input.clientSecret)
    throw invalidField('clientSecret', 'required when the organisation has no OpenID provider yet');
  const secret = input.clientSecret ?? openClientSecret(services, stored!);
  await discoverIssuer(services, issuer, input.clientId, secret);

  return ctx.em.transactional(async (tx) => {
    const current = await tx.findOne(SsoProvider, {});
    const fields = {
      issuer,
      clientId: input.clientId,
      defaultRoleKey: input.defaultRole,
      enabled: input.enabled,
      enforced: input.enforced,
    };
    const changed = current
      ? (Object.keys(fields) as (keyof typeof fields)[]).filter((k) => current[k] !== fields[k])
      : Object.keys(fields);
    if (input.clientSecret) changed.push('clientSecret');
    // From SAML to OpenID: the SAML settings go.
    const oidc = { protocol: 'oidc' as const, samlSsoUrl: null, samlCertificate: null };
    if (current && current.protocol !== 'oidc') changed.push('protocol');
    const provider =
      current ??
      tx.create(SsoProvider, {
        tenantId: ctx.tenantId,
        ...fields,
        ...oidc,
        clientSecretSealed: sealClientSecret(services, secret),
        updatedById: ctx.userId,
      });
    if (current) {
      Object.assign(current, fields, oidc, { updatedById: ctx.userId });
      if (input.clientSecret) current.clientSecretSealed = sealClientSecret(services, input.clientSecret);
      // A new version (updatedAt) even when only the secret changed: the cached discovery is keyed by it.
      if (changed.length) current.updatedAt = new Date();
    }
    if (changed.length)
      audit(tx, {
        action: current ? 'sso.provider_updated' : 'sso.provider_created',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'sso_provider',
        targetId: provider.id,
        ip: props.ip,
        data: { changed, issuer, clientId: input.clientId, enabled: input.enabled, enforced: input.enforced },
      });
    return { provider, created: !current };
  });
}
