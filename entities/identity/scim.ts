import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';
import { User } from './user';

/**
 * The bearer token an identity provider (Okta, Entra ID) uses on /scim/v2 for one organisation. Only the SHA-256
 * of the secret is stored (256 random bits: a fast hash with a unique index keeps a request to one indexed read).
 * An organisation has at most one unrevoked token: issuing a new one revokes the previous one (rotation).
 */
export const ScimToken = defineEntity({
  name: 'ScimToken',
  tableName: 'identity_scim_tokens',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'revokedAt'] }],
  properties: {
    ...tenantColumns(),
    secretHash: p.string().length(64).unique().hidden(),
    createdById: p.uuid().nullable(),
    /** Recorded at most once a minute, off the request path. */
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ScimToken = InferEntity<typeof ScimToken>;

/**
 * An account provisioned into an organisation through SCIM: the identity provider's names for it (userName,
 * externalId, name parts). The SCIM resource id is the account id. The account is active in the organisation
 * while it is a member of it: deprovisioning removes the membership and keeps this row, so the provider can
 * reactivate it.
 */
export const ScimUser = defineEntity({
  name: 'ScimUser',
  tableName: 'identity_scim_users',
  filters: tenantFilter,
  uniques: [
    { properties: ['tenantId', 'userId'] },
    {
      name: 'identity_scim_users_user_name_unique',
      expression: `create unique index "identity_scim_users_user_name_unique" on "identity_scim_users" ("tenant_id", lower("user_name"))`,
    },
  ],
  indexes: [{ properties: ['tenantId', 'externalId'] }],
  properties: {
    ...tenantColumns(),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
    userName: p.string().length(254),
    externalId: p.string().length(255).nullable(),
    givenName: p.string().length(120).nullable(),
    familyName: p.string().length(120).nullable(),
    displayName: p.string().length(120).nullable(),
    updatedAt: updatedAt(),
  },
});
export type ScimUser = InferEntity<typeof ScimUser>;
