import { X509Certificate } from 'node:crypto';
import { Role } from '../../../entities/identity/organization';
import { SsoProvider } from '../../../entities/identity/sso';
import { invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { audit } from '../../platform/audit';
import { OWNER_ROLE } from '../members';
import { normalizeIssuer } from './ssoRules';

export interface SamlProviderInput {
  /** The IdP's entity id (its Issuer). */
  entityId: string;
  /** The IdP's single sign-on URL (HTTP-Redirect binding). */
  ssoUrl: string;
  /** The IdP's signing certificate, PEM. */
  certificate: string;
  defaultRole: string;
  enabled: boolean;
  enforced: boolean;
}

/** A PEM certificate, normalised, or a 400: it must parse and be valid now (an expired one would refuse every sign-in). */
function certificateOf(pem: string): string {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(pem.trim());
  } catch {
    throw invalidField('certificate', 'must be an X.509 certificate in PEM (-----BEGIN CERTIFICATE-----)');
  }
  if (Date.parse(cert.validTo) <= Date.now()) throw invalidField('certificate', `expired on ${cert.validTo}`);
  return cert.toString().trim();
}

/**
 * Sets the organisation's SAML 2.0 IdP (the caller holds org.manage): its entity id, sign-in URL (https; http only
 * where SSO_ALLOW_INSECURE_ISSUERS) and signing certificate, checked before anything is saved. It replaces an OpenID
 * provider (one provider per organisation: its client goes). Audited `sso.provider_created` or
 * `sso.provider_updated` with the fields that changed and the certificate's SHA-256 fingerprint.
 */
export async function configureSamlProvider(
  ctx: TenantContext,
  input: SamlProviderInput,
  props: { ip?: string | null },
): Promise<{ provider: SsoProvider; created: boolean }> {
  const insecure = ctx.services.config.SSO_ALLOW_INSECURE_ISSUERS === 'true';
  const ssoUrl = normalizeIssuer(input.ssoUrl, insecure);
  if (!ssoUrl) throw invalidField('ssoUrl', 'must be an https URL without fragment or credentials');
  const entityId = input.entityId.trim();
  if (!entityId) throw invalidField('entityId', 'must not be blank');
  const certificate = certificateOf(input.certificate);
  if (input.defaultRole === OWNER_ROLE)
    throw invalidField('defaultRole', 'members provisioned on first sign-in cannot be owners');
  if (!(await ctx.em.findOne(Role, { key: input.defaultRole })))
    throw invalidField('defaultRole', 'must be the key of a role of the organisation');
  return ctx.em.transactional(async (tx) => {
    const current = await tx.findOne(SsoProvider, {});
    const fields = {
      protocol: 'saml' as const,
      issuer: entityId,
      samlSsoUrl: ssoUrl,
      samlCertificate: certificate,
      defaultRoleKey: input.defaultRole,
      enabled: input.enabled,
      enforced: input.enforced,
    };
    const changed = current
      ? (Object.keys(fields) as (keyof typeof fields)[]).filter((k) => current[k] !== fields[k])
      : Object.keys(fields);
    const oidc = { clientId: null, clientSecretSealed: null };
    const provider =
      current ?? tx.create(SsoProvider, { tenantId: ctx.tenantId, ...fields, ...oidc, updatedById: ctx.userId });
    if (current) {
      Object.assign(current, fields, oidc, { updatedById: ctx.userId });
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
        data: {
          changed,
          protocol: 'saml',
          entityId,
          certificate: new X509Certificate(certificate).fingerprint256,
          enabled: input.enabled,
          enforced: input.enforced,
        },
      });
    return { provider, created: !current };
  });
}
