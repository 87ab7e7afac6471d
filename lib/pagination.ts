/** A page of a list: `nextCursor` is the id of the last item when more follow (UUIDv7 ids sort by creation). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export interface PageProps {
  /** Page size. */
  limit: number;
  /** nextCursor of the previous page. */
  cursor?: string;
}

/** Cuts the `limit + 1` rows fetched into a page. */
export function toPage<T extends { id: string }>(rows: T[], limit: number): Page<T> {
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? items[items.length - 1].id : null };
}

/** Id condition of the page after `cursor`, for a list ordered by id in `order`. */
export const cursorWhere = (cursor: string | undefined, order: 'asc' | 'desc') => (cursor ? { id: order === 'asc' ? { $gt: cursor } : { $lt: cursor } } : {});

/** The same page with each item presented. */
export const mapPage = <T, U>(page: Page<T>, present: (item: T) => U): Page<U> => ({ items: page.items.map(present), nextCursor: page.nextCursor });
