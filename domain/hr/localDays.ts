import { DateTime } from 'luxon';

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
export const dayNumber = (date: string) => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
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
