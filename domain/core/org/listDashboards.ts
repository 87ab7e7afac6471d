import type { TenantContext } from '../../context';
import { dashboardsOf } from './store';
import { withWidgets, type DashboardWithWidgets } from './dashboards';

/** The caller's own dashboards (the default first), with their widgets. Other members' dashboards are never visible. */
export async function listDashboards(ctx: TenantContext): Promise<DashboardWithWidgets[]> {
  return withWidgets(ctx, await dashboardsOf(ctx.em, ctx.userId!));
}
