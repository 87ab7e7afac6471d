import type { SavedView, SavedViewResource } from '../../../../entities/core/savedView';
import { requireOrgPermission } from '../../../identity/requireOrgPermission';
import { badRequest } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { parseCustomFilters } from '../customValues';
import { fieldDefinitions } from '../fieldDefinitions';
import { columnProblems } from './viewColumns';

/** What a view holds besides its name (the edge has checked each filter's form and the sort). */
export interface SavedViewContent {
  filters?: object;
  sort?: string | null;
  columns?: string[];
}

/** Shared views are the organisation's: creating, editing or deleting one takes core.settings.manage (403). */
export async function checkMayEdit(ctx: TenantContext, view: Pick<SavedView, 'ownerId'>): Promise<void> {
  if (view.ownerId === null) await requireOrgPermission(ctx, 'core.settings.manage');
}

/** 400 when the columns are not the list's, or a custom filter names no field of the organisation. */
export async function checkContent(
  ctx: TenantContext,
  resource: SavedViewResource,
  content: SavedViewContent,
): Promise<void> {
  const defs = await fieldDefinitions(ctx);
  const custom = (content.filters as { custom?: unknown } | undefined)?.custom;
  if (Array.isArray(custom)) parseCustomFilters(defs, custom as string[]);
  const problems = columnProblems(resource, content.columns ?? [], new Set(defs.keys()));
  if (problems.length)
    throw badRequest(
      'validation_failed',
      'Unknown columns',
      problems.map((message) => ({ field: 'columns', message })),
    );
}

/** The filters as stored: those given, without the absent ones. */
export const storedFilters = (filters: object | undefined): Record<string, unknown> =>
  Object.fromEntries(Object.entries(filters ?? {}).filter(([, v]) => v !== undefined && v !== null));
