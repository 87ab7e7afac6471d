import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * The organisation's HR settings (one row; absent means the defaults). `fractionnementWaivedByDefault`: whether an
 * employee waives the days of fractionnement unless their own record says otherwise (L3141-19 lets an individual
 * agreement waive them; the default credits them).
 */
export const HrSettings = defineEntity({
  name: 'HrSettings',
  tableName: 'hr_settings',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId'] }],
  properties: {
    ...tenantColumns(),
    fractionnementWaivedByDefault: p.boolean().default(false),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type HrSettings = InferEntity<typeof HrSettings>;
