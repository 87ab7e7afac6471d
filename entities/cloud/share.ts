import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

export const shareKinds = ['link', 'members'] as const;
export type ShareKind = (typeof shareKinds)[number];

/**
 * A share of a file: a link (a capability token, stored as its SHA-256; optional expiry and argon2
 * password) or a list of members. Revoking sets `revokedAt`.
 */
export const CloudShare = defineEntity({
  name: 'CloudShare',
  tableName: 'cloud_shares',
  filters: tenantFilter,
  checks: [
    {
      name: 'cloud_shares_shape_check',
      expression: `("kind" = 'link') = ("token_hash" is not null) and ("kind" = 'link' or cardinality("member_ids") > 0)`,
    },
  ],
  indexes: [{ properties: ['tenantId', 'nodeId'] }],
  uniques: [{ properties: ['tokenHash'] }],
  properties: {
    ...tenantColumns(),
    nodeId: p.uuid(),
    kind: p.enum([...shareKinds]),
    tokenHash: p.string().length(64).nullable(),
    passwordHash: p.string().length(200).nullable(),
    expiresAt: p.datetime().nullable(),
    memberIds: p.array().columnType('uuid[]').default([]),
    createdBy: p.uuid().nullable(),
    revokedAt: p.datetime().nullable(),
  },
});
export type CloudShare = InferEntity<typeof CloudShare>;
