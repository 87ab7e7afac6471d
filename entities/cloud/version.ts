import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import { fileCategories } from './node';

/**
 * A previous content of a file of the drive, kept when it was overwritten (a WebDAV PUT, an upload replacing it, or a restore of another version): its object
 * (never the file's current one), size and type, who wrote that content and when. Its bytes stay counted in the
 * organisation's quota (used_bytes) until the version is deleted; purging the file deletes its versions, their
 * objects and their bytes.
 */
export const CloudFileVersion = defineEntity({
  name: 'CloudFileVersion',
  tableName: 'cloud_file_versions',
  filters: tenantFilter,
  checks: [
    { name: 'cloud_file_versions_size_check', expression: `"size" >= 0` },
    { name: 'cloud_file_versions_content_hash_check', expression: `"content_hash" ~ '^[0-9a-f]{64}$'` },
  ],
  indexes: [{ properties: ['tenantId', 'fileId', 'createdAt'] }],
  properties: {
    ...tenantColumns(),
    fileId: p.uuid(),
    size: p.bigint('number'),
    contentType: p.string().length(255).nullable(),
    category: p.enum([...fileCategories]).nullable(),
    objectKey: p.string().length(200),
    /** Who wrote this content (null when unknown). */
    authorId: p.uuid().nullable(),
    /** When this content was written (the file's modification time before it was overwritten). */
    contentAt: p.datetime(),
    /** SHA-256 (hex) of this content, when its bytes passed through the server (WebDAV PUT); else null. */
    contentHash: p.string().length(64).nullable(),
  },
});
export type CloudFileVersion = InferEntity<typeof CloudFileVersion>;
