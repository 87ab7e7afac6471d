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

/**
 * A group an identity provider pushes (SCIM Groups, RFC 7643 4.2): its name, the provider's id, and the role of the
 * organisation its members hold while they are in it (`roleKey`, set by an admin; null: the group grants nothing).
 */
export const ScimGroup = defineEntity({
  name: 'ScimGroup',
  tableName: 'identity_scim_groups',
  filters: tenantFilter,
  uniques: [
    {
      name: 'identity_scim_groups_display_name_unique',
      expression: `create unique index "identity_scim_groups_display_name_unique" on "identity_scim_groups" ("tenant_id", lower("display_name"))`,
    },
  ],
  indexes: [{ properties: ['tenantId', 'externalId'] }],
  properties: {
    ...tenantColumns(),
    displayName: p.string().length(255),
    externalId: p.string().length(255).nullable(),
    roleKey: p.string().length(64).nullable(),
    updatedAt: updatedAt(),
  },
});
export type ScimGroup = InferEntity<typeof ScimGroup>;

/** A provisioned account in a SCIM group (the account id is the SCIM User id). Goes with the group or the account. */
export const ScimGroupMember = defineEntity({
  name: 'ScimGroupMember',
  tableName: 'identity_scim_group_members',
  filters: tenantFilter,
  uniques: [{ properties: ['groupId', 'userId'] }],
  indexes: [{ properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    groupId: () => p.manyToOne(ScimGroup).mapToPk().fieldName('group_id').deleteRule('cascade'),
    userId: () => p.manyToOne(User).mapToPk().fieldName('user_id').deleteRule('cascade'),
  },
});
export type ScimGroupMember = InferEntity<typeof ScimGroupMember>;
