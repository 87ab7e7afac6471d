import { DashboardWidget, type Dashboard } from '../../../entities/core/dashboard';
import { newId } from '../../../entities/base';
import { badRequest, conflict, forbidden, invalidField, notFound, type FieldError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { callerAccess, mayUse } from './access';
import { getDashboard, ownDashboard, type DashboardWithWidgets } from './dashboards';
import { widgetTypeOf } from './widgetCatalogue';
import { checkSettingNames, checkSettingTargets } from './checkWidgetSettings';
import { lockDashboard, widgetsOf, widgetStats } from './store';

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

function checkFits(d: Dashboard, p: Placement, field = ''): void {
  if (p.x + p.w > d.columns) throw invalidField(field ? `${field}.x` : 'x', `x + w must be at most the dashboard's ${d.columns} columns`);
}

/**
 * 400 for a type not in the catalogue, a setting it requires and lacks or one it does not take; 403
 * `widget_not_available` when the module is off or the caller lacks the permission; then 400 for a setting naming
 * no record of the organisation (looked up only for a caller who may use the widget, so it tells others nothing).
 */
async function checkType(ctx: TenantContext, type: string, settings: Record<string, unknown>): Promise<{ defaultW: number; defaultH: number }> {
  const def = widgetTypeOf(type);
  if (!def) throw invalidField('type', 'must be a type of the widget catalogue (GET /api/dashboards/widget-catalogue)');
  checkSettingNames(def, settings);
  if (!mayUse(await callerAccess(ctx), def)) throw forbidden('widget_not_available', `The ${type} widget needs the ${def.module} module in use${def.permission ? ` and the permission ${def.permission}` : ''}`);
  await checkSettingTargets(ctx, def, settings);
  return def;
}

/**
 * Adds a widget; without a place it goes below the others at the type's default size. The dashboard row is
 * locked while counting: concurrent adds each counted the others out and passed MAX_WIDGETS.
 */
export async function addWidget(ctx: TenantContext, dashboardId: string, props: WidgetProps & { type: string }): Promise<DashboardWithWidgets> {
  const d = await ownDashboard(ctx, dashboardId);
  const settings = props.settings ?? {};
  const def = await checkType(ctx, props.type, settings);
  await ctx.em.transactional(async (em) => {
    if (!(await lockDashboard(em, ctx.tenantId, d.id))) throw notFound('Dashboard');
    const stats = await widgetStats(em, ctx.tenantId, d.id);
    if (stats.count >= MAX_WIDGETS) throw conflict('widget_limit', `A dashboard holds at most ${MAX_WIDGETS} widgets`);
    const w = props.w ?? Math.min(def.defaultW, d.columns);
    const place = { x: props.x ?? 0, y: props.y ?? Number(stats.bottom ?? 0), w, h: props.h ?? def.defaultH };
    checkFits(d, place);
    em.create(DashboardWidget, { id: newId(), tenantId: ctx.tenantId, dashboardId: d.id, type: props.type, title: props.title ?? null, ...place, settings });
  });
  return getDashboard(ctx, d.id);
}

async function ownWidget(ctx: TenantContext, dashboardId: string, widgetId: string): Promise<{ d: Dashboard; widget: DashboardWidget }> {
  const d = await ownDashboard(ctx, dashboardId);
  const widget = await ctx.em.findOne(DashboardWidget, { id: widgetId, dashboardId: d.id });
  if (!widget) throw notFound('Widget');
  return { d, widget };
}

/** Edits a widget's title, place or settings (settings are replaced and checked against its type). */
export async function updateWidget(ctx: TenantContext, dashboardId: string, widgetId: string, props: WidgetProps): Promise<DashboardWithWidgets> {
  const { d, widget } = await ownWidget(ctx, dashboardId, widgetId);
  if (props.settings !== undefined) await checkType(ctx, widget.type, props.settings);
  const place = { x: props.x ?? widget.x, y: props.y ?? widget.y, w: props.w ?? widget.w, h: props.h ?? widget.h };
  checkFits(d, place);
  Object.assign(widget, place);
  if (props.title !== undefined) widget.title = props.title;
  if (props.settings !== undefined) widget.settings = props.settings;
  await ctx.em.flush();
  return getDashboard(ctx, d.id);
}

export async function deleteWidget(ctx: TenantContext, dashboardId: string, widgetId: string): Promise<void> {
  const { widget } = await ownWidget(ctx, dashboardId, widgetId);
  await ctx.em.remove(widget).flush();
}

/** Places several widgets at once (drag and drop): all of the dashboard's widgets named must exist (404), every place must fit (400); all or nothing. */
export async function setLayout(ctx: TenantContext, dashboardId: string, items: (Placement & { id: string })[]): Promise<DashboardWithWidgets> {
  const d = await ownDashboard(ctx, dashboardId);
  const widgets = new Map((await widgetsOf(ctx.em, d.id)).map((w) => [w.id, w]));
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (item.x + item.w > d.columns) errors.push({ field: `widgets.${i}.x`, message: `x + w must be at most the dashboard's ${d.columns} columns` });
  });
  if (errors.length) throw badRequest('validation_failed', 'The request is invalid', errors);
  for (const item of items) {
    const w = widgets.get(item.id);
    if (!w) throw notFound('Widget');
    Object.assign(w, { x: item.x, y: item.y, w: item.w, h: item.h });
  }
  await ctx.em.flush();
  return getDashboard(ctx, d.id);
}
