/**
 * Dates as clients and cursors send them, checked before PostgreSQL sees them: JavaScript's Date.parse takes
 * days that do not exist ("2024-04-31" is 1 May) and years PostgreSQL refuses, where `::date` and
 * `::timestamptz` fail the whole statement.
 */

import { invalidField } from './errors';

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

/**
 * The instants the API takes and stores: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z. Beyond them
 * Date.toISOString writes a six-digit year ("+010000-01-01T..."), which PostgreSQL refuses and RFC 3339 has no
 * form for, and PostgreSQL has no year 0 (an offset can move 0001-01-01T00:00 into it).
 */
export const FIRST_INSTANT = '0001-01-01T00:00:00Z';
export const LAST_INSTANT = '9999-12-31T23:59:59.999Z';
const FIRST_INSTANT_MS = Date.parse(FIRST_INSTANT);
const LAST_INSTANT_MS = Date.parse(LAST_INSTANT);

/** The range of every instant, as the OpenAPI conventions and the errors state it. */
export const INSTANT_RANGE = `between ${FIRST_INSTANT} and ${LAST_INSTANT.replace('.999', '')} (UTC)`;

/** A time (epoch milliseconds) within FIRST_INSTANT..LAST_INSTANT. */
export const isStorableTime = (ms: number): boolean => ms >= FIRST_INSTANT_MS && ms <= LAST_INSTANT_MS;

/**
 * 400 `validation_failed` on `field` unless every instant lies in INSTANT_RANGE: for instants derived from the
 * input (an end = start + duration, an all-day event's local midnights), which the input's own bound cannot catch.
 */
export function checkStorable(field: string, what: string, ...instants: Date[]): void {
  if (!instants.every((at) => isStorableTime(at.getTime()))) throw invalidField(field, `${what} must lie ${INSTANT_RANGE}`);
}
