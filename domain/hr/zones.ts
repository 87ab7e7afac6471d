import { DateTime } from 'luxon';
import { invalidField } from '../../lib/errors';
import { dateOf, dayNumber } from './localDays';

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
export const localInstant = (date: string, time: string, zone: string): Date => DateTime.fromISO(`${date}T${time}`, { zone }).toJSDate();

/** ISO week day (1 Monday ... 7 Sunday) of a local date. */
export const weekdayOf = (date: string): number => DateTime.fromISO(date, { zone: 'utc' }).weekday;
