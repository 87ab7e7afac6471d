import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { CloudNode } from '../cloud/node';
import { tenantFilter, updatedAt, createdAt } from '../base';

export const assetKinds = ['image', 'file'] as const;
export type AssetKind = (typeof assetKinds)[number];

/**
 * An entry of the media library. Its bytes are a cloud file (purpose `asset` or `image`, hidden from the
 * drive, counted in the quota) whose id it shares; deleting the cloud file deletes the entry (cascade).
 * Name, size and type are the cloud file's; the library adds the kind and alternative text.
 */
export const Asset = defineEntity({
  name: 'Asset',
  tableName: 'core_assets',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'kind', 'id'] }],
  properties: {
    id: () => p.manyToOne(CloudNode).mapToPk().primary().fieldName('id').deleteRule('cascade'),
    tenantId: p.uuid(),
    createdAt: createdAt(),
    kind: p.enum([...assetKinds]),
    /** Alternative text of an image (accessibility, storefront). */
    alt: p.string().length(300).nullable(),
    createdBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type Asset = InferEntity<typeof Asset>;
