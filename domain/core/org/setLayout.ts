import { badRequest, notFound, type FieldError } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { ownDashboard, type DashboardWithWidgets } from './dashboards';
import { getDashboard } from './getDashboard';
import { widgetsOf } from './store';
import type { Placement } from './widgets';

/** Places several widgets at once (drag and drop): all of the dashboard's widgets named must exist (404), every place must fit (400); all or nothing. */
export async function setLayout(
  ctx: TenantContext,
  dashboardId: string,
  items: (Placement & { id: string })[],
): Promise<DashboardWithWidgets> {
  const d = await ownDashboard(ctx, dashboardId);
  const widgets = new Map((await widgetsOf(ctx.em, d.id)).map((w) => [w.id, w]));
  const errors: FieldError[] = [];
  items.forEach((item, i) => {
    if (item.x + item.w > d.columns)
      errors.push({ field: `widgets.${i}.x`, message: `x + w must be at most the dashboard's ${d.columns} columns` });
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
