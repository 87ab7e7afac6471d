import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

/**
 * A member's own dashboard: a grid of `columns` columns holding widgets. At most one dashboard per member is
 * the default (partial unique index), the one the app opens first.
 */
export const Dashboard = defineEntity({
  name: 'Dashboard',
  tableName: 'core_dashboards',
  filters: tenantFilter,
  indexes: [
    { properties: ['tenantId', 'userId', 'id'] },
    {
      name: 'core_dashboards_one_default',
      expression:
        'create unique index "core_dashboards_one_default" on "core_dashboards" ("tenant_id", "user_id") where "is_default"',
    },
  ],
  checks: [{ name: 'core_dashboards_columns_check', expression: 'columns >= 1 and columns <= 24' }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid(),
    name: p.string().length(120),
    /** Width of the layout grid in columns. */
    columns: p.integer().default(12),
    isDefault: p.boolean().default(false),
    updatedAt: updatedAt(),
  },
});
export type Dashboard = InferEntity<typeof Dashboard>;

/**
 * A widget on a dashboard: a type of the widget catalogue, its place in the grid (x, y, w, h in cells,
 * inside the dashboard's columns) and settings of its type. Deleted with its dashboard.
 */
export const DashboardWidget = defineEntity({
  name: 'DashboardWidget',
  tableName: 'core_dashboard_widgets',
  filters: tenantFilter,
  indexes: [{ properties: ['dashboardId', 'y', 'x'] }],
  checks: [
    {
      name: 'core_dashboard_widgets_place_check',
      expression: 'x >= 0 and y >= 0 and w >= 1 and h >= 1 and w <= 24 and h <= 24 and x + w <= 24',
    },
  ],
  properties: {
    ...tenantColumns(),
    dashboardId: () => p.manyToOne(Dashboard).mapToPk().fieldName('dashboard_id').deleteRule('cascade'),
    type: p.string().length(60),
    title: p.string().length(120).nullable(),
    x: p.integer(),
    y: p.integer(),
    w: p.integer(),
    h: p.integer(),
    settings: p.json<Record<string, unknown>>(),
    updatedAt: updatedAt(),
  },
});
export type DashboardWidget = InferEntity<typeof DashboardWidget>;
