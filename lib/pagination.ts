import { invalidField } from './errors';

/**
 * A page of a list: `nextCursor` is opaque to clients: the id of the last item when more follow (UUIDv7 ids sort
 * by creation), or a keyset cursor (encodeCursor) for a list ordered by another column.
 */
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
export const cursorWhere = (cursor: string | undefined, order: 'asc' | 'desc') =>
  cursor ? { id: order === 'asc' ? { $gt: cursor } : { $lt: cursor } } : {};

/** The same page with each item presented. */
export const mapPage = <T, U>(page: Page<T>, present: (item: T) => U): Page<U> => ({
  items: page.items.map(present),
  nextCursor: page.nextCursor,
});

/**
 * A keyset cursor: base64url of the JSON [sort key, id] of the last item. It holds the position itself, so the
 * next page continues after it even when that item has since been deleted or changed (the statement compares
 * `(key, id) > ($key, $id)`, e.g. keysetAfter in lib/lean.ts). A time key is held to the microsecond, as
 * PostgreSQL stores it (`keysetKey`): a Date holds milliseconds, so rows would repeat or be skipped.
 */
export const encodeCursor = (key: string | number, id: string) =>
  Buffer.from(JSON.stringify([key, id])).toString('base64url');

/** An id as PostgreSQL prints a uuid: anything else is a bad cursor, not a failed statement. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The [sort key, id] of a cursor made by encodeCursor whose key passes `isKey` (checked here, so a forged cursor
 * is a 400 and never a failed statement); anything else is 400 `validation_failed` on `cursor`.
 */
export function decodeCursor<K extends string | number>(
  cursor: string,
  isKey: (key: unknown) => key is K,
): [K, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown;
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      isKey(value[0]) &&
      typeof value[1] === 'string' &&
      UUID.test(value[1])
    )
      return value as [K, string];
  } catch {
    /* falls through */
  }
  throw invalidField('cursor', 'is not a cursor of this list');
}

/**
 * Cuts the `limit + 1` rows of a keyset statement into a page whose cursor is the last item's [sort key, id];
 * `key` reads the key from a row (e.g. the `extra` column of keysetKey).
 */
export function toKeysetPage<T extends { id: string }>(
  rows: T[],
  limit: number,
  key: (row: T) => string | number,
): Page<T> {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(key(last), last.id) : null };
}
