import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

export const shareKinds = ['link', 'members'] as const;
export type ShareKind = (typeof shareKinds)[number];
/** What a link lets its holder do: download the file (`view`), also replace its content (`edit`), or only drop files into a folder (`upload`). */
export const sharePermissions = ['view', 'edit', 'upload'] as const;
export type SharePermission = (typeof sharePermissions)[number];

/**
 * A share of a file: a link (a capability token, stored as its SHA-256; optional expiry and argon2
 * password) or a list of members; or of a folder: an upload-only link (a drop folder) or one that lists and downloads
 * its subtree. Revoking sets `revokedAt`.
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
    // Members read what is shared with them: only links edit or take uploads.
    { name: 'cloud_shares_link_permission_check', expression: `"permission" = 'view' or "kind" = 'link'` },
    // Only folders take uploads (drop links), only files take edits; folders are shared by links alone.
    {
      name: 'cloud_shares_node_permission_check',
      expression: `("node_kind" = 'folder' and "kind" = 'link' and "permission" <> 'edit') or ("node_kind" = 'file' and "permission" <> 'upload')`,
    },
  ],
  indexes: [
    { properties: ['tenantId', 'nodeId'] },
    // The sweep's expiry notices: links with an expiry not noticed yet.
    {
      name: 'cloud_shares_expiry_notice_index',
      expression: `create index "cloud_shares_expiry_notice_index" on "cloud_shares" ("expires_at") where "expiry_notified_at" is null and "revoked_at" is null`,
    },
  ],
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
    permission: p.enum([...sharePermissions]).default('view'),
    /** What is shared: a file, or a folder (a drop link, or a link that lists and downloads its subtree). */
    nodeKind: p.enum(['file', 'folder'] as const).default('file'),
    /** When its creator was told the link expires soon (the sweep, CLOUD_SHARE_EXPIRY_NOTICE_HOURS before). */
    expiryNotifiedAt: p.datetime().nullable(),
  },
});
export type CloudShare = InferEntity<typeof CloudShare>;
