import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { User } from './user';

/**
 * An organisation's identity provider (single sign-on): OpenID Connect (the issuer it discovers, the client registered
 * there for our callback) or SAML 2.0 (the IdP's entity id, sign-in URL and signing certificate), and the role a
 * member provisioned on first sign-in gets. The client secret is stored sealed
 * (AES-256-GCM under a key derived for it): the token request needs it in clear, and no answer ever carries it.
 * One per organisation.
 */
export const SsoProvider = defineEntity({
  name: 'SsoProvider',
  tableName: 'identity_sso_providers',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  checks: [
    // What each protocol needs: an OpenID client, or a SAML IdP's sign-in URL and signing certificate.
    {
      name: 'identity_sso_providers_protocol_fields_check',
      expression: `("protocol" = 'oidc' and "client_id" is not null and "client_secret_sealed" is not null) or ("protocol" = 'saml' and "saml_sso_url" is not null and "saml_certificate" is not null)`,
    },
  ],
  properties: {
    ...tenantColumns(),
    /** `oidc` (OpenID Connect) or `saml` (SAML 2.0: issuer is then the IdP's entity id). */
    protocol: p.enum(['oidc', 'saml'] as const).default('oidc'),
    issuer: p.string().length(2000),
    clientId: p.string().length(255).nullable(),
    // Never serialised: the views build their answers field by field (SsoProviderView).
    clientSecretSealed: p.text().nullable(),
    /** SAML: the IdP's single sign-on URL (HTTP-Redirect binding). */
    samlSsoUrl: p.string().length(2000).nullable(),
    /** SAML: the IdP's signing certificate (PEM); assertions must be signed with its key. */
    samlCertificate: p.text().nullable(),
    /** Key of a role of the organisation (never `owner`). */
    defaultRoleKey: p.string().length(64),
    enabled: p.boolean(),
    /** SSO is mandatory for the addresses of the organisation's verified domains (no password, no passkey sign-in). */
    enforced: p.boolean().default(false),
    updatedById: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type SsoProvider = InferEntity<typeof SsoProvider>;

/** The provider's subject (`sub`) an account signs in as, per organisation and issuer: linked on first sign-in. */
export const SsoLink = defineEntity({
  name: 'SsoLink',
  tableName: 'identity_sso_links',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'issuer', 'subject'] }, { properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
    issuer: p.string().length(2000),
    subject: p.string().length(255),
    lastSignInAt: p.datetime().nullable(),
  },
});
export type SsoLink = InferEntity<typeof SsoLink>;

/**
 * An e-mail domain an organisation claims: verified by a DNS TXT record holding `token`. A verified domain routes
 * its addresses' sign-in to the organisation's provider (home-realm discovery) and lets that provider provision
 * them. One organisation at most holds a domain verified (a partial unique index).
 */
export const SsoDomain = defineEntity({
  name: 'SsoDomain',
  tableName: 'identity_sso_domains',
  filters: tenantFilter,
  uniques: [
    { properties: ['tenantId', 'domain'] },
    {
      name: 'identity_sso_domains_verified_unique',
      expression: `create unique index "identity_sso_domains_verified_unique" on "identity_sso_domains" ("domain") where verified_at is not null`,
    },
  ],
  checks: [{ name: 'identity_sso_domains_domain_check', expression: '((domain)::text = lower((domain)::text))' }],
  properties: {
    ...tenantColumns(),
    domain: p.string().length(253),
    token: p.string().length(64),
    verifiedAt: p.datetime().nullable(),
    createdById: p.uuid().nullable(),
  },
});
export type SsoDomain = InferEntity<typeof SsoDomain>;
