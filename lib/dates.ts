/**
 * Dates as clients and cursors send them, checked before PostgreSQL sees them: JavaScript's Date.parse takes
 * days that do not exist ("2024-04-31" is 1 May) and years PostgreSQL refuses, where `::date` and
 * `::timestamptz` fail the whole statement.
 */

const DAY = /^(\d{4})-\d{2}-\d{2}$/;

/** A calendar date YYYY-MM-DD that exists (it reads back the same), in the years 0001-9999. */
export function isCalendarDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DAY.exec(value);
  if (!m || Number(m[1]) < 1) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
}

const UTC_TIME = /^(\d{4}-\d{2}-\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?Z$/;

/**
 * A UTC timestamp as a cursor holds one: Date.toISOString's form (or PostgreSQL's, to the microsecond), on a
 * day that exists, years 0001-9999.
 */
export const isUtcTimestamp = (value: unknown): value is string => typeof value === 'string' && isCalendarDate(UTC_TIME.exec(value)?.[1]);
