import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { SavedView, type SavedViewResource } from '../../../../entities/core/savedView';
import { conflict } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { checkContent, checkMayEdit, storedFilters, type SavedViewContent } from './viewRules';

export interface CreateSavedViewProps extends SavedViewContent {
  name: string;
  /** Shared with the organisation (core.settings.manage) rather than the member's own. */
  shared?: boolean;
}

export const viewNameTaken = () =>
  conflict('view_name_taken', 'A view of this list has that name already (among your views, or the shared ones)');

/** Saves a view of a list: the member's own, or shared with the organisation (403 without core.settings.manage). */
export async function createSavedView(
  ctx: TenantContext,
  resource: SavedViewResource,
  props: CreateSavedViewProps,
): Promise<SavedView> {
  const ownerId = props.shared ? null : ctx.userId!;
  await checkMayEdit(ctx, { ownerId });
  await checkContent(ctx, resource, props);
  const view = ctx.em.create(SavedView, {
    tenantId: ctx.tenantId,
    resource,
    name: props.name.trim(),
    ownerId,
    createdBy: ctx.userId,
    filters: storedFilters(props.filters),
    sort: props.sort ?? null,
    columns: props.columns ?? [],
  });
  try {
    await ctx.em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw viewNameTaken();
    throw err;
  }
  return view;
}
