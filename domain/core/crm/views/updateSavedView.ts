import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { SavedView, SavedViewResource } from '../../../../entities/core/savedView';
import type { TenantContext } from '../../../context';
import { viewNameTaken } from './createSavedView';
import { getSavedView } from './getSavedView';
import { checkContent, checkMayEdit, storedFilters, type SavedViewContent } from './viewRules';

/**
 * Edits a view: the owner their own (another member's is 404), a holder of core.settings.manage a shared one (403
 * for the others). Given filters replace the view's whole; sort null clears it. Whether it is shared does not change.
 */
export async function updateSavedView(
  ctx: TenantContext,
  resource: SavedViewResource,
  id: string,
  props: SavedViewContent & { name?: string },
): Promise<SavedView> {
  const view = await getSavedView(ctx, resource, id);
  await checkMayEdit(ctx, view);
  await checkContent(ctx, resource, props);
  if (props.name !== undefined) view.name = props.name.trim();
  if (props.filters !== undefined) view.filters = storedFilters(props.filters);
  if (props.sort !== undefined) view.sort = props.sort;
  if (props.columns !== undefined) view.columns = props.columns;
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw viewNameTaken();
    throw err;
  }
  return view;
}
