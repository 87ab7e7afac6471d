import { isCalendarDate } from '../../lib/calendar';
import { invalidField } from '../../lib/errors';
import type { Page } from '../../lib/pagination';
import { isUuid } from './names';
import type { CursorType } from './store/items';

/** Keyset cursors of the drive's listings: opaque to clients, base64url of the sort values of the last item. */

export interface ListProps {
  limit: number;
  /** nextCursor of the previous page (opaque). */
  cursor?: string;
}

export const encodeCursor = (values: (string | number)[]) => Buffer.from(JSON.stringify(values)).toString('base64url');

/** A timestamptz as PostgreSQL prints it (`::text`): "2026-12-05 10:11:12.123456+00". */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::([0-5]\d)){0,2}$/;
const INT8_MIN = -(2n ** 63n);
const INT8_MAX = 2n ** 63n - 1n;

/** A real instant of years 1-9999: February 30th or hour 24 are refused here rather than by PostgreSQL. */
function isTimestamp(value: string): boolean {
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [hour, minute, second, offset] = m.slice(4, 8).map(Number);
  return isCalendarDate(`${m[1]}-${m[2]}-${m[3]}`) && hour < 24 && minute < 60 && second < 60 && offset < 16;
}

/** Each value is checked before PostgreSQL casts it, so a forged cursor is a 400, never a failed statement. */
const validCursorValue: Record<CursorType, (value: string) => boolean> = {
  text: (v) => !v.includes('\0'),
  bigint: (v) => /^-?\d{1,19}$/.test(v) && BigInt(v) >= INT8_MIN && BigInt(v) <= INT8_MAX,
  timestamptz: isTimestamp,
  boolean: (v) => v === 'true' || v === 'false',
  uuid: isUuid,
};

/** The values of a cursor of a listing sorted by `types`; null without one, 400 `cursor` for anything else. */
export function decodeCursor(cursor: string | undefined, types: CursorType[]): string[] | null {
  if (!cursor) return null;
  try {
    const values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (
      Array.isArray(values) &&
      values.length === types.length &&
      values.every((v, i) => typeof v === 'string' && v.length <= 1000 && validCursorValue[types[i]](v))
    ) {
      return values as string[];
    }
  } catch {
    // falls through to the field error
  }
  throw invalidField('cursor', 'is not a cursor of this listing');
}

/** Cuts the `limit + 1` rows fetched into a page whose cursor carries `cursorOf` the last item. */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  present: (r: R) => T,
  cursorOf: (r: R) => (string | number)[],
): Page<T> {
  const items = rows.slice(0, limit);
  return {
    items: items.map(present),
    nextCursor: rows.length > limit ? encodeCursor(cursorOf(items[items.length - 1])) : null,
  };
}
