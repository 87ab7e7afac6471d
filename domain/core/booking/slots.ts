import { DateTime } from 'luxon';
import type { WeeklyHours } from '../../../entities/core/booking';
import { invalidField } from '../../../lib/errors';
import { checkInstantRange } from '../../../lib/calendar';
import { merge, type Interval } from '../../hr/availability';

/** A period asked about: [from, to). */
export interface Range {
  from: Date;
  to: Date;
}

/** Longest range one availability (or free/busy) read covers: the booking horizon of one request. */
export const MAX_AVAILABILITY_DAYS = 62;
/** Range the storefront reads when the caller gives no end: the week a storefront shows. */
export const DEFAULT_AVAILABILITY_DAYS = 7;

/** 400 on `to` unless the range is non-empty and covers at most MAX_AVAILABILITY_DAYS (within storable years). */
export function checkRange(from: Date, to: Date): void {
  if (!(from < to)) throw invalidField('to', 'must be after from');
  if (to.getTime() - from.getTime() > MAX_AVAILABILITY_DAYS * 86_400_000)
    throw invalidField('to', `the range may cover at most ${MAX_AVAILABILITY_DAYS} days`);
  checkInstantRange({ from, to });
}

/** The end of a storefront read: `to` when given, else DEFAULT_AVAILABILITY_DAYS after `from`. */
export const availabilityEnd = (from: Date, to?: Date): Date =>
  to ?? new Date(from.getTime() + DEFAULT_AVAILABILITY_DAYS * 86_400_000);

/** The lead-time rule: no slot starts before `from`, nor sooner than the service's minimum notice after `now`. */
export const earliestStart = (from: Date, now: Date, minNoticeMinutes: number): Date =>
  new Date(Math.max(from.getTime(), now.getTime() + minNoticeMinutes * 60_000));

/** Slots start on this grid (minutes) from the start of each working interval, whatever the service's length. */
export const SLOT_STEP_MINUTES = 15;

/** One weekly range "HH:MM-HH:MM" (end after start, same day). */
export const HOURS_RANGE = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

/**
 * The local days of a zone that touch a range, with a memo of local times: converting a local time to an
 * instant costs a time-zone offset lookup (luxon asks Intl), so a team's hours over a month share one
 * conversion per (day, time) instead of one per staff member. DST is resolved by luxon as before.
 */
export interface LocalCalendar {
  range: Range;
  days: LocalDay[];
}

interface LocalDay {
  weekday: number;
  /** Its local date "YYYY-MM-DD". */
  date: string;
  /** Its local midnight (the day's first instant). */
  start: Date;
  /** The next local midnight. */
  next: Date;
  /** The instant of a local time "HH:MM" ("24:00" is the next midnight) of this day. */
  at(hm: string): Date;
}

/**
 * Local days are the same for every request: kept per (zone, local midnight) so repeated reads of a storefront
 * (the same weeks asked again and again) skip luxon altogether. Bounded: cleared when it grows past the limit.
 * The instants handed out are shared: callers never mutate them (they replace, never set, interval ends).
 */
const DAY_CACHE_LIMIT = 20_000;
const dayCache = new Map<string, LocalDay>();

function localDay(zone: string, at: number): LocalDay {
  const key = `${zone}|${at}`;
  let day = dayCache.get(key);
  if (day) return day;
  const midnight = DateTime.fromMillis(at, { zone });
  const memo = new Map<string, Date>();
  const next = midnight.plus({ days: 1 }).startOf('day').toJSDate();
  day = {
    weekday: midnight.weekday,
    date: midnight.toISODate()!,
    start: midnight.toJSDate(),
    next,
    at(hm) {
      let instant = memo.get(hm);
      if (!instant) {
        instant =
          hm === '24:00'
            ? next
            : midnight.set({ hour: Number(hm.slice(0, 2)), minute: Number(hm.slice(3, 5)) }).toJSDate();
        memo.set(hm, instant);
      }
      return instant;
    },
  };
  if (dayCache.size >= DAY_CACHE_LIMIT) dayCache.clear();
  dayCache.set(key, day);
  return day;
}

export function localCalendar(zone: string, range: Range): LocalCalendar {
  const days: LocalDay[] = [];
  const first = DateTime.fromJSDate(range.from, { zone }).startOf('day').minus({ days: 1 }).startOf('day').toMillis();
  const last = range.to.getTime();
  // Walk from midnight to midnight through the cache (each day knows the next midnight): one luxon read per request.
  for (let day = localDay(zone, first); ; day = localDay(zone, day.next.getTime())) {
    days.push(day);
    if (day.next.getTime() > last) break;
  }
  return { range, days };
}

/**
 * A staff member's own weekly hours as UTC intervals between `from` and `to`, each local day read in `zone`
 * (so 09:00 stays 09:00 across a DST change; luxon resolves the instants). Pass a shared `calendar` (same zone
 * and range) when reading several staff members.
 */
export function weeklyIntervals(
  hours: WeeklyHours,
  zone: string,
  range: Range,
  calendar: LocalCalendar = localCalendar(zone, range),
): Interval[] {
  const out: Interval[] = [];
  for (const day of calendar.days) {
    for (const span of hours[String(day.weekday) as keyof WeeklyHours] ?? []) {
      const interval = { start: day.at(span.slice(0, 5)), end: day.at(span.slice(6, 11)) };
      if (interval.start < range.from) interval.start = range.from;
      if (interval.end > range.to) interval.end = range.to;
      if (interval.start < interval.end) out.push(interval);
    }
  }
  return merge(out);
}

export interface SlotRules {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** No slot starts before this instant (now + minimum notice). */
  notBefore: Date;
}

/**
 * Busy time as epoch milliseconds, sorted by start and merged: [starts[i], ends[i]). Plain numbers rather than
 * Date intervals: a month of a busy team is thousands of ranges read on every availability request.
 */
export interface BusySpans {
  starts: number[];
  ends: number[];
}

/** Sorts and merges busy ranges given as a flat list [start, end, start, end, ...] (epoch milliseconds). */
export function busySpans(flat: number[]): BusySpans {
  const n = flat.length >> 1;
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => flat[2 * x] - flat[2 * y]);
  const starts: number[] = [];
  const ends: number[] = [];
  for (const i of order) {
    const start = flat[2 * i];
    const end = flat[2 * i + 1];
    const last = ends.length - 1;
    if (last >= 0 && start <= ends[last]) {
      if (end > ends[last]) ends[last] = end;
    } else {
      starts.push(start);
      ends.push(end);
    }
  }
  return { starts, ends };
}

/**
 * Start times of free slots: the appointment lies inside a working interval, on the SLOT_STEP grid from the
 * interval's start, and its blocked range (buffers included) overlaps no busy interval.
 */
export function freeSlots(working: Interval[], busy: Interval[], rules: SlotRules): Date[] {
  return freeSlotStarts(working, busySpans(busy.flatMap((i) => [i.start.getTime(), i.end.getTime()])), rules).map(
    (s) => new Date(s),
  );
}

/** freeSlots as epoch milliseconds (no Date per slot). One pass over both sorted lists: O(slots + busy). */
export function freeSlotStarts(working: Interval[], busy: BusySpans, rules: SlotRules): number[] {
  const step = SLOT_STEP_MINUTES * 60_000;
  const length = rules.durationMinutes * 60_000;
  const before = rules.bufferBeforeMinutes * 60_000;
  const after = rules.bufferAfterMinutes * 60_000;
  const notBefore = rules.notBefore.getTime();
  const { starts: busyStart, ends: busyEnd } = busy;
  const starts: number[] = [];
  let b = 0;
  for (const w of working) {
    const wStart = w.start.getTime();
    const wEnd = w.end.getTime();
    const first = Math.max(wStart, Math.ceil((notBefore - wStart) / step) * step + wStart);
    for (let s = first; s + length <= wEnd; s += step) {
      const blockedFrom = s - before;
      const blockedUntil = s + length + after;
      // Busy intervals ending before this blocked range can't matter for any later slot either.
      while (b < busyEnd.length && busyEnd[b] <= blockedFrom) b++;
      let clash = false;
      for (let k = b; k < busyStart.length && busyStart[k] < blockedUntil; k++) {
        if (busyEnd[k] > blockedFrom) {
          clash = true;
          break;
        }
      }
      if (!clash) starts.push(s);
    }
  }
  return starts;
}
