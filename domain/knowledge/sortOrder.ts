/** sortOrder is a PostgreSQL integer (int4). */
const SORT_ORDER_MAX = 2_147_483_647;

/**
 * The sortOrder that puts a new article or collection last: one past the last one, capped at the column's
 * maximum, where new ones tie and the id (UUIDv7, time-ordered) keeps them in creation order.
 */
export const nextSortOrder = (last: { sortOrder: number } | null): number =>
  last ? Math.min(last.sortOrder + 1, SORT_ORDER_MAX) : 0;
