import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { Role } from '../identity/organization';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/** Entry keys of the sidebar catalogue, in the order a member wants them, hidden and pinned. */
const layoutColumns = () => ({
  /** Entry keys in display order; entries not listed follow in catalogue order. */
  order: p.array().columnType('text[]').default([]),
  hidden: p.array().columnType('text[]').default([]),
  pinned: p.array().columnType('text[]').default([]),
});

/** A member's own sidebar arrangement (one per member and organisation). */
export const SidebarPreference = defineEntity({
  name: 'SidebarPreference',
  tableName: 'core_sidebar_preferences',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    ...layoutColumns(),
    updatedAt: updatedAt(),
  },
});
export type SidebarPreference = InferEntity<typeof SidebarPreference>;

/** The arrangement an administrator sets for the members of a role who have none of their own. Deleted with the role. */
export const SidebarRoleDefault = defineEntity({
  name: 'SidebarRoleDefault',
  tableName: 'core_sidebar_role_defaults',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'roleId'] }],
  properties: {
    ...tenantColumns(),
    roleId: () => p.manyToOne(Role).mapToPk().fieldName('role_id').deleteRule('cascade'),
    ...layoutColumns(),
    updatedBy: p.uuid().nullable(),
    updatedAt: updatedAt(),
  },
});
export type SidebarRoleDefault = InferEntity<typeof SidebarRoleDefault>;
