import { DashboardWidget } from '../../../entities/core/dashboard';
import { newId } from '../../../entities/base';
import { conflict, notFound } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { ownDashboard, type DashboardWithWidgets } from './dashboards';
import { getDashboard } from './getDashboard';
import { lockDashboard, widgetStats } from './store';
import { checkFits, checkType, MAX_WIDGETS, type WidgetProps } from './widgets';

/**
 * Adds a widget; without a place it goes below the others at the type's default size. The dashboard row is
 * locked while counting: concurrent adds each counted the others out and passed MAX_WIDGETS.
 */
export async function addWidget(
  ctx: TenantContext,
  dashboardId: string,
  props: WidgetProps & { type: string },
): Promise<DashboardWithWidgets> {
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
    em.create(DashboardWidget, {
      id: newId(),
      tenantId: ctx.tenantId,
      dashboardId: d.id,
      type: props.type,
      title: props.title ?? null,
      ...place,
      settings,
    });
  });
  return getDashboard(ctx, d.id);
}
