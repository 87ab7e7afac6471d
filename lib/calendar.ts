/**
 * Calendar arithmetic shared by every module: which dates and instants the API takes, local days in a time zone,
 * months. Dates are strings YYYY-MM-DD; days are numbers (days since 1970-01-01) where scans need speed.
 */
import { DateTime } from 'luxon';
import { invalidField } from './errors';

// Dates as clients and cursors send them, checked before PostgreSQL sees them: JavaScript's Date.parse takes days
// that do not exist ("2024-04-31" is 1 May) and years PostgreSQL refuses, where `::date` and `::timestamptz` fail
// the whole statement.
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
export const isUtcTimestamp = (value: unknown): value is string =>
  typeof value === 'string' && isCalendarDate(UTC_TIME.exec(value)?.[1]);

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
  if (!instants.every((at) => isStorableTime(at.getTime())))
    throw invalidField(field, `${what} must lie ${INSTANT_RANGE}`);
}

/** The organisation's default zone for employees created without one (French rules are the default set). */
export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/**
 * The dates HR and booking accept: years 1900 to 9998. The day after 9999-12-31 is year 10000, which ISO
 * strings write "+010000-01-01" (PostgreSQL refuses it), and reads look a day or two beyond the dates asked.
 */
export const FIRST_DATE = '1900-01-01';
export const LAST_DATE = '9998-12-31';
const FIRST_MS = Date.UTC(1900, 0, 1);
const END_MS = Date.UTC(9999, 0, 1);

/** 400 unless a range of instants lies within FIRST_DATE..LAST_DATE (UTC); `fields` name them in the error. */
export function checkInstantRange(range: { from: Date; to: Date }, fields = { from: 'from', to: 'to' }): void {
  const bounds = `must be between ${FIRST_DATE}T00:00:00Z and ${LAST_DATE}T23:59:59Z`;
  if (!(range.from.getTime() >= FIRST_MS && range.from.getTime() < END_MS)) throw invalidField(fields.from, bounds);
  if (!(range.to.getTime() >= FIRST_MS && range.to.getTime() <= END_MS)) throw invalidField(fields.to, bounds);
}

/** The local dates (YYYY-MM-DD) from `from` to `to` inclusive; by day number, so no year can make it endless. */
export function* datesBetween(from: string, to: string): Generator<string> {
  for (let day = dayNumber(from), last = dayNumber(to); day <= last; day++) yield dateOf(day);
}

/** The date `days` after (or before, negative) a date YYYY-MM-DD. */
export const addDays = (date: string, days: number): string => dateOf(dayNumber(date) + days);

/** The UTC instant of a local date and "HH:mm" time in `zone` (a time skipped by a DST change moves forward). */
export const localInstant = (date: string, time: string, zone: string): Date =>
  DateTime.fromISO(`${date}T${time}`, { zone }).toJSDate();

/** ISO week day (1 Monday ... 7 Sunday) of a local date. */
export const weekdayOf = (date: string): number => DateTime.fromISO(date, { zone: 'utc' }).weekday;

/**
 * Fast local calendar arithmetic for scans over many punches. Days are numbers (days since 1970-01-01);
 * a zone's UTC offset is looked up once per hour of time and remembered (offsets change on hour boundaries),
 * so converting tens of thousands of instants costs a few luxon calls, not one each.
 */
export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const offsets = new Map<string, Map<number, number>>();

/** UTC offset of `zone` at an instant, in milliseconds. */
export function offsetMs(zone: string, ms: number): number {
  let byHour = offsets.get(zone);
  if (!byHour) offsets.set(zone, (byHour = new Map()));
  const hour = Math.floor(ms / HOUR_MS);
  let offset = byHour.get(hour);
  if (offset === undefined) {
    if (byHour.size > 200_000) byHour.clear();
    byHour.set(hour, (offset = DateTime.fromMillis(hour * HOUR_MS, { zone }).offset * 60_000));
  }
  return offset;
}

/** The local day (number) of an instant in `zone`. */
export const localDay = (zone: string, ms: number) => Math.floor((ms + offsetMs(zone, ms)) / DAY_MS);

/** The instant local day `day` starts in `zone`. */
export function dayStart(zone: string, day: number): number {
  const guess = day * DAY_MS - offsetMs(zone, day * DAY_MS);
  return day * DAY_MS - offsetMs(zone, guess);
}

/** Day number of a date YYYY-MM-DD, and back. */
export const dayNumber = (date: string) =>
  new Date(0).setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) /
  DAY_MS;
export const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** Monday of a day's ISO week (1970-01-01 was a Thursday). */
export const mondayOf = (day: number) => day - ((day + 3) % 7);

/** ISO 8601 local time of an instant with its offset, e.g. 2026-03-02T08:00:00+01:00 (seconds precision). */
export function localIso(zone: string, ms: number): string {
  const offset = offsetMs(zone, ms);
  const abs = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  const suffix = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${new Date(ms + offset).toISOString().slice(0, 19)}${suffix}`;
}

/** The month before now in the default zone, YYYY-MM. */
export const previousMonth = (now = new Date()) =>
  DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE }).minus({ months: 1 }).toFormat('yyyy-MM');

/** The last `count` months that have ended at `now` in the default zone, oldest first (YYYY-MM). */
export function endedMonths(count: number, now = new Date()): string[] {
  const current = DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE }).startOf('month');
  return Array.from({ length: count }, (_, i) => current.minus({ months: count - i }).toFormat('yyyy-MM'));
}

/** First and last local dates of a month YYYY-MM. */
export function monthBounds(period: string): { first: string; last: string } {
  const start = DateTime.fromFormat(period, 'yyyy-MM', { zone: 'utc' });
  if (!start.isValid) throw invalidField('period', 'must be a month YYYY-MM');
  return { first: start.toISODate()!, last: start.endOf('month').toISODate()! };
}

/** 400 for a month that has not ended yet (nothing is earned for it yet). */
export function checkEndedMonth(period: string, now = new Date()): void {
  if (period > previousMonth(now)) throw invalidField('period', 'must be a month that has ended');
}

/** Today's date (YYYY-MM-DD) in `zone`. */
export const todayIn = (zone: string, now = new Date()): string => DateTime.fromJSDate(now).setZone(zone).toISODate()!;
