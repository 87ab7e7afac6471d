import type { SavedViewResource } from '../../../../entities/core/savedView';
import type { TenantContext } from '../../../context';
import { getSavedView } from './getSavedView';
import { checkMayEdit } from './viewRules';

/** Deletes a view, under the rules of editing it (updateSavedView). */
export async function deleteSavedView(ctx: TenantContext, resource: SavedViewResource, id: string): Promise<void> {
  const view = await getSavedView(ctx, resource, id);
  await checkMayEdit(ctx, view);
  await ctx.em.remove(view).flush();
}
