import type { SavedView, SavedViewResource } from '../../../../entities/core/savedView';
import type { TenantContext } from '../../../context';
import { visibleViews } from '../store/savedViews';

/** The views of a list the acting member sees: the organisation's shared ones first, then their own. */
export const listSavedViews = (ctx: TenantContext, resource: SavedViewResource): Promise<SavedView[]> =>
  visibleViews(ctx.em, resource, ctx.userId!);
