import { DateTime, IANAZone } from 'luxon';
import { invalidField } from '../../lib/errors';

/** The organisation's default zone for employees created without one (French rules are the default set). */
export const DEFAULT_TIME_ZONE = 'Europe/Paris';

/** 400 unless `zone` is an IANA time zone name luxon knows. */
export function checkZone(field: string, zone: string): string {
  if (!IANAZone.isValidZone(zone)) throw invalidField(field, 'must be an IANA time zone such as Europe/Paris');
  return zone;
}

/** The local dates (YYYY-MM-DD) from `from` to `to` inclusive. */
export function* datesBetween(from: string, to: string): Generator<string> {
  for (let d = DateTime.fromISO(from, { zone: 'utc' }); d.toISODate()! <= to; d = d.plus({ days: 1 })) yield d.toISODate()!;
}

/** The UTC instant of a local date and "HH:mm" time in `zone` (a time skipped by a DST change moves forward). */
export const localInstant = (date: string, time: string, zone: string): Date => DateTime.fromISO(`${date}T${time}`, { zone }).toJSDate();

/** ISO week day (1 Monday ... 7 Sunday) of a local date. */
export const weekdayOf = (date: string): number => DateTime.fromISO(date, { zone: 'utc' }).weekday;
