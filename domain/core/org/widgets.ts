import { DashboardWidget, type Dashboard } from '../../../entities/core/dashboard';
import { forbidden, invalidField, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { callerAccess, mayUse } from './access';
import { ownDashboard } from './dashboards';
import { widgetTypeOf } from './widgetCatalogue';
import { checkSettingNames, checkSettingTargets } from './checkWidgetSettings';

/** Widgets a dashboard holds at most. */
export const MAX_WIDGETS = 50;

export interface Placement {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface WidgetProps extends Partial<Placement> {
  title?: string | null;
  settings?: Record<string, unknown>;
}

export function checkFits(d: Dashboard, p: Placement, field = ''): void {
  if (p.x + p.w > d.columns)
    throw invalidField(field ? `${field}.x` : 'x', `x + w must be at most the dashboard's ${d.columns} columns`);
}

/**
 * 400 for a type not in the catalogue, a setting it requires and lacks or one it does not take; 403
 * `widget_not_available` when the module is off or the caller lacks the permission; then 400 for a setting naming
 * no record of the organisation (looked up only for a caller who may use the widget, so it tells others nothing).
 */
export async function checkType(
  ctx: TenantContext,
  type: string,
  settings: Record<string, unknown>,
): Promise<{ defaultW: number; defaultH: number }> {
  const def = widgetTypeOf(type);
  if (!def) throw invalidField('type', 'must be a type of the widget catalogue (GET /api/dashboards/widget-catalogue)');
  checkSettingNames(def, settings);
  if (!mayUse(await callerAccess(ctx), def))
    throw forbidden(
      'widget_not_available',
      `The ${type} widget needs the ${def.module} module in use${def.permission ? ` and the permission ${def.permission}` : ''}`,
    );
  await checkSettingTargets(ctx, def, settings);
  return def;
}

export async function ownWidget(
  ctx: TenantContext,
  dashboardId: string,
  widgetId: string,
): Promise<{ d: Dashboard; widget: DashboardWidget }> {
  const d = await ownDashboard(ctx, dashboardId);
  const widget = await ctx.em.findOne(DashboardWidget, { id: widgetId, dashboardId: d.id });
  if (!widget) throw notFound('Widget');
  return { d, widget };
}
