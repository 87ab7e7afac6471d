import { Dashboard, DashboardWidget } from '../../../entities/core/dashboard';
import { newId } from '../../../entities/base';
import { conflict, invalidField, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { callerAccess, whyUnavailable, type Unavailable } from './access';
import { widgetTypeOf } from './widgetCatalogue';
import { clearDefaultDashboard, countDashboards, dashboardsOf, deleteDashboardRow, lockMemberDashboards, makeOldestDefault, widgetsOfDashboards, widgetsPast } from './store';

/** Dashboards a member may have. */
export const MAX_DASHBOARDS = 20;

/**
 * Why a placed widget cannot be shown now: its module is not in use (switched off, or no longer in the
 * entitlements), the caller lost its permission, or its type left the catalogue. The widget stays where it is
 * and is shown again once the reason goes away.
 */
export type WidgetUnavailable = Unavailable | 'type_unknown';
export const widgetUnavailableReasons: readonly WidgetUnavailable[] = ['module_not_in_use', 'permission_missing', 'type_unknown'];

export interface PlacedWidget {
  widget: DashboardWidget;
  /** null: available. */
  unavailable: WidgetUnavailable | null;
}

export interface DashboardWithWidgets {
  dashboard: Dashboard;
  widgets: PlacedWidget[];
}

async function withWidgets(ctx: TenantContext, dashboards: Dashboard[]): Promise<DashboardWithWidgets[]> {
  const widgets = dashboards.length ? await widgetsOfDashboards(ctx.em, dashboards.map((d) => d.id)) : [];
  const access = widgets.length ? await callerAccess(ctx) : null;
  const placed = widgets.map((widget): PlacedWidget => {
    const def = widgetTypeOf(widget.type);
    return { widget, unavailable: !def ? 'type_unknown' : whyUnavailable(access!, def) };
  });
  return dashboards.map((dashboard) => ({ dashboard, widgets: placed.filter((p) => p.widget.dashboardId === dashboard.id) }));
}

/** The caller's own dashboards (the default first), with their widgets. Other members' dashboards are never visible. */
export async function listDashboards(ctx: TenantContext): Promise<DashboardWithWidgets[]> {
  return withWidgets(ctx, await dashboardsOf(ctx.em, ctx.userId!));
}

/** One of the caller's dashboards (another member's or organisation's: 404). */
export async function ownDashboard(ctx: TenantContext, id: string): Promise<Dashboard> {
  const d = await ctx.em.findOne(Dashboard, { id, userId: ctx.userId! });
  if (!d) throw notFound('Dashboard');
  return d;
}

export async function getDashboard(ctx: TenantContext, id: string): Promise<DashboardWithWidgets> {
  return (await withWidgets(ctx, [await ownDashboard(ctx, id)]))[0];
}

export interface DashboardProps {
  name?: string;
  columns?: number;
  isDefault?: boolean;
}

/** Serialises the member's dashboard writes (see lockMemberDashboards). */
const lockMember = (ctx: TenantContext) => lockMemberDashboards(ctx.em, ctx.tenantId, ctx.userId);

/** Making one dashboard the default clears the flag on the others (the unique index holds one). */
const clearDefault = (ctx: TenantContext, exceptId: string) => clearDefaultDashboard(ctx.em, ctx.userId!, exceptId);

/** A new dashboard; the member's first one is their default. 409 `dashboard_limit` past MAX_DASHBOARDS. */
export async function createDashboard(ctx: TenantContext, props: Required<Pick<DashboardProps, 'name'>> & DashboardProps): Promise<DashboardWithWidgets> {
  return ctx.em.transactional(async (em) => {
    await lockMember({ ...ctx, em });
    const count = await countDashboards(em, ctx.userId!);
    if (count >= MAX_DASHBOARDS) throw conflict('dashboard_limit', `A member may have at most ${MAX_DASHBOARDS} dashboards`);
    const d = em.create(Dashboard, { id: newId(), tenantId: ctx.tenantId, userId: ctx.userId!, name: props.name, columns: props.columns ?? 12, isDefault: count === 0 || !!props.isDefault });
    if (d.isDefault) await clearDefault({ ...ctx, em }, d.id);
    await em.flush();
    return { dashboard: d, widgets: [] };
  });
}

/**
 * A member who has dashboards always has exactly one default. Un-defaulting it would leave none and the server
 * would have to guess which one the member wants instead, so it is refused: make another one the default.
 */
const defaultRequired = () =>
  conflict('default_dashboard_required', 'This is your default dashboard and you must keep one: make another dashboard the default instead (isDefault: true on it)');

/**
 * Renames, resizes the grid (widgets must still fit: 400 otherwise) or makes it the default. isDefault false on
 * the default is 409 `default_dashboard_required` (the whole request is refused); on another dashboard it changes
 * nothing. Under the member's lock, so the flag read is the current one.
 */
export async function updateDashboard(ctx: TenantContext, id: string, props: DashboardProps): Promise<DashboardWithWidgets> {
  await ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    await lockMember(tx);
    const d = await ownDashboard(tx, id);
    if (props.columns !== undefined && props.columns < d.columns) {
      const past = await widgetsPast(em, ctx.tenantId, d.id, props.columns);
      if (past) throw invalidField('columns', `${past} widget(s) would not fit in ${props.columns} columns; move them first`);
    }
    if (props.name !== undefined) d.name = props.name;
    if (props.columns !== undefined) d.columns = props.columns;
    if (props.isDefault === true && !d.isDefault) {
      await clearDefault(tx, d.id);
      d.isDefault = true;
    }
    if (props.isDefault === false && d.isDefault) throw defaultRequired();
    await em.flush();
  });
  return getDashboard(ctx, id);
}

/**
 * Deletes a dashboard with its widgets (cascade). Deleting the default makes the first remaining dashboard in
 * list order (the oldest) the default, so the list keeps its order and the member keeps one default. Under the
 * member's lock: a concurrent delete or default change either happened before (and is seen) or waits.
 */
export async function deleteDashboard(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    await lockMember(tx);
    const d = await ownDashboard(tx, id);
    await deleteDashboardRow(em, ctx.userId!, d.id);
    if (d.isDefault) await makeOldestDefault(em, ctx.userId!, d.id);
  });
}
