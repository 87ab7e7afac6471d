import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/**
 * A dead property of a file or folder set over WebDAV (PROPPATCH, RFC 4918 9.2): the client's XML element kept
 * as it sent it (namespaces declared on it), named by namespace and local name. It follows its node (a MOVE keeps
 * it, a COPY copies it) and goes with it when the node is purged.
 */
export const CloudDavProperty = defineEntity({
  name: 'CloudDavProperty',
  tableName: 'cloud_dav_properties',
  filters: tenantFilter,
  checks: [{ name: 'cloud_dav_properties_value_length', expression: `length("value") <= 65536` }],
  properties: {
    nodeId: p.uuid().primary(),
    namespace: p.string().length(1000).primary(),
    name: p.string().length(255).primary(),
    tenantId: p.uuid(),
    /** The property element as XML. */
    value: p.text(),
    updatedAt: p.datetime().onCreate(() => new Date()),
  },
});
export type CloudDavProperty = InferEntity<typeof CloudDavProperty>;

export const davLockScopes = ['exclusive', 'shared'] as const;
export type DavLockScope = (typeof davLockScopes)[number];
export const davLockDepths = ['0', 'infinity'] as const;
export type DavLockDepth = (typeof davLockDepths)[number];

/**
 * A WebDAV write lock (RFC 4918 6, class 2) on a path of the drive: a path, not a node, because a lock may be
 * taken on an unmapped URL and is lost when its resource moves. `pathKey` is the lower-cased path
 * (names are unique case-insensitively); depth infinity covers everything below it. A lock past `expiresAt` is
 * gone: reads ignore it and the next lock operation of the organisation deletes it.
 */
export const CloudDavLock = defineEntity({
  name: 'CloudDavLock',
  tableName: 'cloud_dav_locks',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'pathKey'] }],
  properties: {
    ...tenantColumns(),
    token: p.string().length(100).unique(),
    pathKey: p.text(),
    depth: p.enum([...davLockDepths]),
    scope: p.enum([...davLockScopes]),
    /** The DAV:owner element the client sent, as XML. */
    ownerXml: p.text().nullable(),
    userId: p.uuid(),
    timeoutSeconds: p.integer(),
    expiresAt: p.datetime(),
  },
});
export type CloudDavLock = InferEntity<typeof CloudDavLock>;
