import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const nodeKinds = ['folder', 'file'] as const;
export type NodeKind = (typeof nodeKinds)[number];

/** What a file is, from its content type and name: the `type` of search and of the quota's breakdown. */
export const fileCategories = [
  'image',
  'video',
  'audio',
  'pdf',
  'document',
  'spreadsheet',
  'presentation',
  'archive',
  'text',
  'other',
] as const;
export type FileCategory = (typeof fileCategories)[number];

/** `purpose` of the files of the drive itself; other modules (assets, images) store theirs with their own purpose, hidden from the drive. */
export const DRIVE_PURPOSE = 'file';

/** Column sizes the API and the rules repeat: a name, a description, a purpose (module key). */
export const NAME_LENGTH = 255;
export const DESCRIPTION_LENGTH = 1000;
export const PURPOSE_LENGTH = 40;

/**
 * A folder or a file of an organisation's drive: one table, so names are unique across both within a
 * folder (unique index, database-enforced), and a folder listing is one index scan. `parentId` null is the
 * root. A file's bytes live in object storage under `objectKey` (`<tenantId>/files/<id>`, chosen by the
 * server). Trashing marks the node and its whole subtree with `trashedAt` and `trashRootId` (the node the
 * user trashed), so a restore brings back exactly what one delete took away.
 */
export const CloudNode = defineEntity({
  name: 'CloudNode',
  tableName: 'cloud_nodes',
  filters: tenantFilter,
  checks: [
    {
      name: 'cloud_nodes_shape_check',
      expression: `(("kind" = 'file') = ("object_key" is not null)) and "size" >= 0 and ("kind" = 'file' or "purpose" = 'file') and (("trashed_at" is null) = ("trash_root_id" is null))`,
    },
    { name: 'cloud_nodes_content_hash_check', expression: `"content_hash" ~ '^[0-9a-f]{64}$'` },
  ],
  indexes: [
    {
      name: 'cloud_nodes_name_unique',
      expression: `create unique index "cloud_nodes_name_unique" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), lower("name")) where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      // Folder listings: folders first, then by name, keyset-paginated.
      name: 'cloud_nodes_listing',
      expression: `create index "cloud_nodes_listing" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), ("kind" = 'file'), lower("name"), "id") where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      // The same listings sorted by size or by date (migration 20261214090000).
      name: 'cloud_nodes_listing_size',
      expression: `create index "cloud_nodes_listing_size" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), ("kind" = 'file'), "size", "id") where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      name: 'cloud_nodes_listing_date',
      expression: `create index "cloud_nodes_listing_date" on "cloud_nodes" ("tenant_id", coalesce("parent_id", '00000000-0000-0000-0000-000000000000'::uuid), ("kind" = 'file'), "updated_at", "id") where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      // Search (migration 20261219000100): "name contains q" by trigrams, the page in (tenant, lower(name), id) order.
      name: 'cloud_nodes_name_trgm',
      expression: `create index "cloud_nodes_name_trgm" on "cloud_nodes" using gin ("name" gin_trgm_ops) where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      name: 'cloud_nodes_search',
      expression: `create index "cloud_nodes_search" on "cloud_nodes" ("tenant_id", lower("name"), "id") where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      // Search by type walks that category only, in the page's order.
      name: 'cloud_nodes_search_category',
      expression: `create index "cloud_nodes_search_category" on "cloud_nodes" ("tenant_id", "category", lower("name"), "id") where "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      // The sweep's look for recent images without a current preview (migration 20261219000200).
      name: 'cloud_nodes_recent_images',
      expression: `create index "cloud_nodes_recent_images" on "cloud_nodes" ("updated_at") where "kind" = 'file' and "category" = 'image' and "trashed_at" is null and "purpose" = 'file'`,
    },
    {
      name: 'cloud_nodes_trash',
      expression: `create index "cloud_nodes_trash" on "cloud_nodes" ("tenant_id", "trash_root_id") where "trashed_at" is not null`,
    },
    {
      name: 'cloud_nodes_trashed_at',
      expression: `create index "cloud_nodes_trashed_at" on "cloud_nodes" ("trashed_at") where "trash_root_id" = "id"`,
    },
  ],
  properties: {
    ...tenantColumns(),
    kind: p.enum([...nodeKinds]),
    /** `file` for the drive; another module's key (`asset`, `image` ...) for files it stores through the cloud. */
    purpose: p.string().length(PURPOSE_LENGTH).default(DRIVE_PURPOSE),
    /** The folder holding it; null at the root. */
    parentId: p.uuid().nullable(),
    name: p.string().length(NAME_LENGTH),
    /** Bytes of a file; 0 for a folder. */
    size: p.bigint('number').default(0),
    contentType: p.string().length(255).nullable(),
    category: p.enum([...fileCategories]).nullable(),
    objectKey: p.string().length(200).nullable(),
    /** Free text of the owner (PATCH), e.g. what the file is for. */
    description: p.string().length(DESCRIPTION_LENGTH).nullable(),
    createdBy: p.uuid().nullable(),
    /** Who wrote the current content when it was overwritten (null: the creator). */
    contentAuthorId: p.uuid().nullable(),
    /** SHA-256 (hex) of the current content, when its bytes passed through the server (WebDAV PUT); else null. */
    contentHash: p.string().length(64).nullable(),
    trashedAt: p.datetime().nullable(),
    /** The node whose deletion trashed this one (itself for what the user trashed). */
    trashRootId: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type CloudNode = InferEntity<typeof CloudNode>;
