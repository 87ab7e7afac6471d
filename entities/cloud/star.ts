import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantFilter } from '../base';

/** A member's favourite (file or folder): favourites are per member, like Nextcloud's. */
export const CloudStar = defineEntity({
  name: 'CloudStar',
  tableName: 'cloud_stars',
  filters: tenantFilter,
  properties: {
    userId: p.uuid().primary(),
    nodeId: p.uuid().primary(),
    tenantId: p.uuid(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type CloudStar = InferEntity<typeof CloudStar>;
