import { Dashboard } from '../../../entities/core/dashboard';
import { newId } from '../../../entities/base';
import { conflict } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { countDashboards } from './store';
import { clearDefault, lockMember, MAX_DASHBOARDS, type DashboardProps, type DashboardWithWidgets } from './dashboards';

/** A new dashboard; the member's first one is their default. 409 `dashboard_limit` past MAX_DASHBOARDS. */
export async function createDashboard(
  ctx: TenantContext,
  props: Required<Pick<DashboardProps, 'name'>> & DashboardProps,
): Promise<DashboardWithWidgets> {
  return ctx.em.transactional(async (em) => {
    await lockMember({ ...ctx, em });
    const count = await countDashboards(em, ctx.userId!);
    if (count >= MAX_DASHBOARDS)
      throw conflict('dashboard_limit', `A member may have at most ${MAX_DASHBOARDS} dashboards`);
    const d = em.create(Dashboard, {
      id: newId(),
      tenantId: ctx.tenantId,
      userId: ctx.userId!,
      name: props.name,
      columns: props.columns ?? 12,
      isDefault: count === 0 || !!props.isDefault,
    });
    if (d.isDefault) await clearDefault({ ...ctx, em }, d.id);
    await em.flush();
    return { dashboard: d, widgets: [] };
  });
}
