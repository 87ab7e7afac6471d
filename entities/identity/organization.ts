import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { createdAt, idColumn, tenantColumns, tenantFilter, updatedAt } from '../base';
import { User } from './user';

/** An organisation is a tenant: its id is the tenantId of every record it owns. */
export const Organization = defineEntity({
  name: 'Organization',
  tableName: 'organizations',
  properties: {
    id: idColumn(),
    name: p.string().length(120),
    slug: p.string().length(80).unique(),
    createdById: p.uuid().nullable(),
    suspendedAt: p.datetime().nullable(),
    suspendedReason: p.string().length(500).nullable(),
    /** Members must sign in with a second factor; one without is asked to enrol and gets nothing else until then. */
    mfaRequired: p.boolean().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
});
export type Organization = InferEntity<typeof Organization>;

/** A role of one organisation: a named set of permission keys (domain/identity/permissionCatalogue.ts). */
export const Role = defineEntity({
  name: 'Role',
  tableName: 'roles',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'key'] }],
  properties: {
    ...tenantColumns(),
    key: p.string().length(60),
    name: p.string().length(80),
    description: p.string().length(500).default(''),
    permissions: p.array().default([]),
    /** owner, admin and member exist in every organisation and cannot be deleted. */
    system: p.boolean().default(false),
    updatedAt: updatedAt(),
  },
});
export type Role = InferEntity<typeof Role>;

/** A user's membership of an organisation, with the roles they hold there. */
export const Membership = defineEntity({
  name: 'Membership',
  tableName: 'memberships',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'user'] }],
  indexes: [{ properties: ['user'] }],
  properties: {
    ...tenantColumns(),
    user: () => p.manyToOne(User).deleteRule('cascade'),
    roles: () => p.manyToMany(Role).pivotTable('membership_roles').owner(),
  },
});
export type Membership = InferEntity<typeof Membership>;

/**
 * An invitation to join an organisation with a role; the mailed token is stored only as its hash. An address
 * has at most one unaccepted invitation per organisation: inviting it again refreshes that one.
 */
export const Invitation = defineEntity({
  name: 'Invitation',
  tableName: 'invitations',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'email'] }, { properties: ['email'] }],
  uniques: [
    {
      name: 'invitations_pending_unique',
      expression: `create unique index "invitations_pending_unique" on "invitations" ("tenant_id", "email") where "accepted_at" is null`,
    },
  ],
  properties: {
    ...tenantColumns(),
    email: p.string().length(254),
    role: () => p.manyToOne(Role).deleteRule('cascade'),
    tokenHash: p.string().length(64).unique().hidden(),
    invitedById: p.uuid(),
    expiresAt: p.datetime(),
    acceptedAt: p.datetime().nullable(),
    acceptedById: p.uuid().nullable(),
  },
});
export type Invitation = InferEntity<typeof Invitation>;
