import type { TenantContext } from '../../context';
import type { DashboardWithWidgets } from './dashboards';
import { getDashboard } from './getDashboard';
import { checkFits, checkType, ownWidget, type WidgetProps } from './widgets';

/** Edits a widget's title, place or settings (settings are replaced and checked against its type). */
export async function updateWidget(
  ctx: TenantContext,
  dashboardId: string,
  widgetId: string,
  props: WidgetProps,
): Promise<DashboardWithWidgets> {
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
