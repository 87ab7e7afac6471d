import { Dashboard, DashboardWidget } from '../../../entities/core/dashboard';
import { notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { callerAccess, whyUnavailable, type Unavailable } from './access';
import { widgetTypeOf } from './widgetCatalogue';
import { clearDefaultDashboard, lockMemberDashboards, widgetsOfDashboards } from './store';

/** Dashboards a member may have. */
export const MAX_DASHBOARDS = 20;

/**
 * Why a placed widget cannot be shown now: its module is not in use (switched off, or no longer in the
 * entitlements), the caller lost its permission, or its type left the catalogue. The widget stays where it is
 * and is shown again once the reason goes away.
 */
export type WidgetUnavailable = Unavailable | 'type_unknown';

export const widgetUnavailableReasons: readonly WidgetUnavailable[] = [
  'module_not_in_use',
  'permission_missing',
  'type_unknown',
];

export interface PlacedWidget {
  widget: DashboardWidget;
  /** null: available. */
  unavailable: WidgetUnavailable | null;
}

export interface DashboardWithWidgets {
  dashboard: Dashboard;
  widgets: PlacedWidget[];
}

export async function withWidgets(ctx: TenantContext, dashboards: Dashboard[]): Promise<DashboardWithWidgets[]> {
  const widgets = dashboards.length
    ? await widgetsOfDashboards(
        ctx.em,
        dashboards.map((d) => d.id),
      )
    : [];
  const access = widgets.length ? await callerAccess(ctx) : null;
  const placed = widgets.map((widget): PlacedWidget => {
    const def = widgetTypeOf(widget.type);
    return { widget, unavailable: !def ? 'type_unknown' : whyUnavailable(access!, def) };
  });
  return dashboards.map((dashboard) => ({
    dashboard,
    widgets: placed.filter((p) => p.widget.dashboardId === dashboard.id),
  }));
}

/** One of the caller's dashboards (another member's or organisation's: 404). */
export async function ownDashboard(ctx: TenantContext, id: string): Promise<Dashboard> {
  const d = await ctx.em.findOne(Dashboard, { id, userId: ctx.userId! });
  if (!d) throw notFound('Dashboard');
  return d;
}

export interface DashboardProps {
  name?: string;
  columns?: number;
  isDefault?: boolean;
}

/** Serialises the member's dashboard writes (see lockMemberDashboards). */
export const lockMember = (ctx: TenantContext) => lockMemberDashboards(ctx.em, ctx.tenantId, ctx.userId);

/** Making one dashboard the default clears the flag on the others (the unique index holds one). */
export const clearDefault = (ctx: TenantContext, exceptId: string) =>
  clearDefaultDashboard(ctx.em, ctx.userId!, exceptId);
