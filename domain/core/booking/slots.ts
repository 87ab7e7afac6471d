import { DateTime } from 'luxon';
import type { WeeklyHours } from '../../../entities/core/booking';
import { merge, type Interval } from '../../hr/availability';

/** A period asked about: [from, to). */
export interface Range {
  from: Date;
  to: Date;
}

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
  days: { weekday: number; at(hm: string): Date; next: Date }[];
}

export function localCalendar(zone: string, range: Range): LocalCalendar {
  const days: LocalCalendar['days'] = [];
  let day = DateTime.fromJSDate(range.from, { zone }).startOf('day').minus({ days: 1 });
  const last = DateTime.fromJSDate(range.to, { zone }).startOf('day');
  for (; day <= last; day = day.plus({ days: 1 })) {
    const local = day;
    const memo = new Map<string, Date>();
    const next = local.plus({ days: 1 }).toJSDate();
    days.push({
      weekday: local.weekday,
      next,
      at(hm) {
        let instant = memo.get(hm);
        if (!instant) {
          instant = hm === '24:00' ? next : local.set({ hour: Number(hm.slice(0, 2)), minute: Number(hm.slice(3, 5)) }).toJSDate();
          memo.set(hm, instant);
        }
        return instant;
      },
    });
  }
  return { range, days };
}

/**
 * A staff member's own weekly hours as UTC intervals between `from` and `to`, each local day read in `zone`
 * (so 09:00 stays 09:00 across a DST change; luxon resolves the instants). Pass a shared `calendar` (same zone
 * and range) when reading several staff members.
 */
export function weeklyIntervals(hours: WeeklyHours, zone: string, range: Range, calendar: LocalCalendar = localCalendar(zone, range)): Interval[] {
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
 * Start times of free slots: the appointment lies inside a working interval, on the SLOT_STEP grid from the
 * interval's start, and its blocked range (buffers included) overlaps no busy interval. `busy` sorted by start.
 * One pass over both sorted lists: O(slots + busy).
 */
export function freeSlots(working: Interval[], busy: Interval[], rules: SlotRules): Date[] {
  const step = SLOT_STEP_MINUTES * 60_000;
  const length = rules.durationMinutes * 60_000;
  const before = rules.bufferBeforeMinutes * 60_000;
  const after = rules.bufferAfterMinutes * 60_000;
  const starts: Date[] = [];
  let b = 0;
  for (const w of working) {
    const first = Math.max(w.start.getTime(), Math.ceil((rules.notBefore.getTime() - w.start.getTime()) / step) * step + w.start.getTime());
    for (let s = first; s + length <= w.end.getTime(); s += step) {
      const blockedFrom = s - before;
      const blockedUntil = s + length + after;
      // Busy intervals ending before this blocked range can't matter for any later slot either.
      while (b < busy.length && busy[b].end.getTime() <= blockedFrom) b++;
      let clash = false;
      for (let k = b; k < busy.length && busy[k].start.getTime() < blockedUntil; k++) {
        if (busy[k].end.getTime() > blockedFrom) {
          clash = true;
          break;
        }
      }
      if (!clash) starts.push(new Date(s));
    }
  }
  return starts;
}

/** Busy intervals sorted by start (the pointer of freeSlots needs them so), merged. */
export const sortedBusy = (intervals: Interval[]): Interval[] => merge(intervals);
