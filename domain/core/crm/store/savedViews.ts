import { SavedView, type SavedViewResource } from '../../../../entities/core/savedView';
import type { Em } from '../../../../lib/db';

/** The views of a list a member sees: the shared ones, then their own, each by name. */
export const visibleViews = (em: Em, resource: SavedViewResource, userId: string): Promise<SavedView[]> =>
  em.find(
    SavedView,
    { resource, $or: [{ ownerId: null }, { ownerId: userId }] },
    { orderBy: { ownerId: 'asc nulls first', name: 'asc', id: 'asc' } },
  );

/** One view of a list if the member sees it (shared, or their own), else null. */
export const visibleView = (em: Em, resource: SavedViewResource, id: string, userId: string) =>
  em.findOne(SavedView, { id, resource, $or: [{ ownerId: null }, { ownerId: userId }] });
