import { conflict, invalidField } from '../../../lib/errors';
import type { TenantContext } from '../../context';
import { widgetsPast } from './store';
import { clearDefault, lockMember, ownDashboard, type DashboardProps, type DashboardWithWidgets } from './dashboards';
import { getDashboard } from './getDashboard';

/**
 * A member who has dashboards always has exactly one default. Un-defaulting it would leave none and the server
 * would have to guess which one the member wants instead, so it is refused: make another one the default.
 */
const defaultRequired = () =>
  conflict(
    'default_dashboard_required',
    'This is your default dashboard and you must keep one: make another dashboard the default instead (isDefault: true on it)',
  );

/**
 * Renames, resizes the grid (widgets must still fit: 400 otherwise) or makes it the default. isDefault false on
 * the default is 409 `default_dashboard_required` (the whole request is refused); on another dashboard it changes
 * nothing. Under the member's lock, so the flag read is the current one.
 */
export async function updateDashboard(
  ctx: TenantContext,
  id: string,
  props: DashboardProps,
): Promise<DashboardWithWidgets> {
  await ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    await lockMember(tx);
    const d = await ownDashboard(tx, id);
    if (props.columns !== undefined && props.columns < d.columns) {
      const past = await widgetsPast(em, ctx.tenantId, d.id, props.columns);
      if (past)
        throw invalidField('columns', `${past} widget(s) would not fit in ${props.columns} columns; move them first`);
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
