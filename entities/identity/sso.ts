import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { User } from './user';

/**
 * An organisation's OpenID Connect provider (single sign-on): the issuer it discovers, the client registered there
 * for our callback, the role a member provisioned on first sign-in gets. The client secret is stored sealed
 * (AES-256-GCM under a key derived for it): the token request needs it in clear, and no answer ever carries it.
 * One per organisation.
 */
export const SsoProvider = defineEntity({
  name: 'SsoProvider',
  tableName: 'identity_sso_providers',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  properties: {
    ...tenantColumns(),
    issuer: p.string().length(2000),
    clientId: p.string().length(255),
    clientSecretSealed: p.text().hidden(),
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
