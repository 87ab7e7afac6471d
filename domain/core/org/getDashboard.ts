import type { TenantContext } from '../../context';
import { ownDashboard, withWidgets, type DashboardWithWidgets } from './dashboards';

export async function getDashboard(ctx: TenantContext, id: string): Promise<DashboardWithWidgets> {
  return (await withWidgets(ctx, [await ownDashboard(ctx, id)]))[0];
}
