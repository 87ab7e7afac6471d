import { isUUID } from 'class-validator';
import type { SavedView, SavedViewResource } from '../../../../entities/core/savedView';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { visibleView } from '../store/savedViews';

/** A view of the list the acting member sees (shared, or their own); 404 for any other, another member's included. */
export async function getSavedView(ctx: TenantContext, resource: SavedViewResource, id: string): Promise<SavedView> {
  const view = isUUID(id) ? await visibleView(ctx.em, resource, id, ctx.userId!) : null;
  if (!view) throw notFound('View');
  return view;
}
