import type { SavedViewResource } from '../../../../entities/core/savedView';

/**
 * Pure rules of saved views: the columns a list can show (the properties of its items, and for customers their
 * custom fields as `custom.<key>`), the sorts it knows, and how a view's filters combine with those of a request.
 */

export const customerColumns = [
  'name',
  'kind',
  'roles',
  'tags',
  'emails',
  'phones',
  'addresses',
  'primaryEmail',
  'ownerId',
  'externalId',
  'lastContactAt',
  'createdAt',
  'updatedAt',
] as const;

export const dealColumns = [
  'title',
  'customerId',
  'pipelineId',
  'stageId',
  'amount',
  'currency',
  'ownerId',
  'status',
  'lostReason',
  'expectedCloseDate',
  'closedAt',
  'stageChangedAt',
  'externalId',
  'createdAt',
  'updatedAt',
] as const;

/** The deal list has one order (oldest first). */
export const dealSorts = ['createdAt'] as const;

/** The problems of a list of columns (empty when every column is known and named once). */
export function columnProblems(resource: SavedViewResource, columns: string[], customKeys: Set<string>): string[] {
  const known: readonly string[] = resource === 'customers' ? customerColumns : dealColumns;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const column of columns) {
    if (seen.has(column)) problems.push(`${column} is listed twice`);
    seen.add(column);
    const custom = resource === 'customers' && column.startsWith('custom.');
    if (custom ? !customKeys.has(column.slice('custom.'.length)) : !known.includes(column))
      problems.push(
        custom
          ? `${column}: ${column.slice('custom.'.length)} is not a custom field of this organisation`
          : `${column} is not a column of the ${resource} list`,
      );
  }
  return problems;
}

/**
 * The filters and sort a list runs with when a view is applied: the view's, each replaced by the request's when
 * the request gives it (a list filter such as `custom` is replaced whole, not added to).
 */
export function withView<T extends object>(
  view: { filters: Record<string, unknown>; sort?: string | null },
  request: T,
  filterNames: readonly string[],
): T {
  const merged: Record<string, unknown> = { ...(request as Record<string, unknown>) };
  for (const name of filterNames)
    if (merged[name] === undefined && view.filters[name] !== undefined) merged[name] = view.filters[name];
  if (merged.sort === undefined && view.sort != null) merged.sort = view.sort;
  return merged as T;
}
