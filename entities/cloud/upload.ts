import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import { NAME_LENGTH, PURPOSE_LENGTH } from './node';

/**
 * A started upload: the quota it reserved (`size` bytes in cloud_usage.reserved_bytes) and where the bytes
 * go. Its id becomes the file's id on confirmation; the sweep releases it, and deletes any object at
 * `objectKey`, once `expiresAt` passed unconfirmed.
 */
export const CloudUpload = defineEntity({
  name: 'CloudUpload',
  tableName: 'cloud_uploads',
  filters: tenantFilter,
  checks: [
    { name: 'cloud_uploads_size_check', expression: `"size" >= 0` },
    // A resumable upload has a part size from its reservation, its multipart id once the store started it.
    {
      name: 'cloud_uploads_multipart_check',
      expression: `"part_size" > 0 and ("multipart_id" is null or "part_size" is not null)`,
    },
  ],
  // expiresAt: the sweep; tenant and user: a member's pending uploads (GET /api/cloud/uploads).
  indexes: [{ properties: ['expiresAt'] }, { properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid().nullable(),
    purpose: p.string().length(PURPOSE_LENGTH),
    parentId: p.uuid().nullable(),
    name: p.string().length(NAME_LENGTH),
    size: p.bigint('number'),
    contentType: p.string().length(255),
    objectKey: p.string().length(200),
    expiresAt: p.datetime(),
    /** The file whose content this upload replaces (its confirmation keeps the previous content as a version); null for a new file. */
    replacesId: p.uuid().nullable(),
    /** A resumable upload: the store's id of its multipart upload (null: a single PUT to objectKey). */
    multipartId: p.string().length(64).nullable(),
    /** A resumable upload: the size of each part but the last (bytes). */
    partSize: p.bigint('number').nullable(),
  },
});
export type CloudUpload = InferEntity<typeof CloudUpload>;
