import type { TenantContext } from '../../context';
import { ownWidget } from './widgets';

export async function deleteWidget(ctx: TenantContext, dashboardId: string, widgetId: string): Promise<void> {
  const { widget } = await ownWidget(ctx, dashboardId, widgetId);
  await ctx.em.remove(widget).flush();
}
