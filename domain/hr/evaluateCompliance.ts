import { DateTime } from 'luxon';
import type { ComplianceRule } from '../../entities/hr/compliance';
import type { RuleSet } from './complianceRules';
import { dateOf, DAY_MS as DAY, dayNumber, dayStart, localDay, mondayOf } from '../../lib/calendar';
import type { WorkInterval } from './timeline';

/** The rules a scan of the punches judges (the others are raised when weeks close). */
export const SCANNED_RULES = [
  'max_daily_hours',
  'max_weekly_hours',
  'max_average_weekly_hours',
  'min_daily_rest',
  'min_weekly_rest',
  'min_break',
] as const satisfies readonly ComplianceRule[];

export interface Breach {
  rule: ComplianceRule;
  /** Local day YYYY-MM-DD or ISO week YYYY-Www. */
  periodKey: string;
  measuredMinutes: number;
  limitMinutes: number;
  detail: string;
}

const MINUTE = 60_000;
const hours = (minutes: number) => `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')}`;
const weekKeys = new Map<number, string>();
/** The ISO week key (2026-W10) of a Monday's day number. */
export const isoWeekOf = (monday: number) => {
  let key = weekKeys.get(monday);
  if (!key) weekKeys.set(monday, (key = DateTime.fromMillis(monday * DAY, { zone: 'utc' }).toFormat("kkkk-'W'WW")));
  return key;
};

/**
 * The breaches of one employee's work intervals (sorted, UTC) on the local days `from`..`to` of `zone`.
 * Days belong to the zone's calendar; a week is an ISO week (Monday to Sunday). The intervals should cover the
 * weeks of the range and `averageWeeks` before (the average and weekly rest look back).
 *   max_daily_hours     work of a local day (intervals cut at midnight) above the limit
 *   max_weekly_hours    work of an ISO week touching the range above the limit
 *   max_average_weekly  average of that week and the ones before it (averageWeeks in all) above the limit
 *   min_daily_rest      between the last exit of a working day and the first entry of the next one
 *   min_weekly_rest     no uninterrupted rest that long overlapping a week that has work
 *   min_break           a working day reaching breakAfter without a pause of minBreak between two of its intervals
 * A working day gathers the intervals starting on a local day (a night shift stays one working day).
 */
export function evaluateCompliance(
  intervals: WorkInterval[],
  zone: string,
  from: string,
  to: string,
  rules: RuleSet,
): Breach[] {
  const breaches: Breach[] = [];
  const minutesByDay = new Map<number, number>();
  const shifts = new Map<number, WorkInterval[]>();
  for (const i of intervals) {
    const startDay = localDay(zone, i.start.getTime());
    (shifts.get(startDay) ?? shifts.set(startDay, []).get(startDay)!).push(i);
    // Cut at local midnights so each day gets its own minutes.
    let cursor = i.start.getTime();
    for (let n = startDay; cursor < i.end.getTime(); n++) {
      const until = Math.min(i.end.getTime(), dayStart(zone, n + 1));
      minutesByDay.set(n, (minutesByDay.get(n) ?? 0) + (until - cursor) / MINUTE);
      cursor = until;
    }
  }
  const first = dayNumber(from);
  const last = dayNumber(to);
  const dayMinutes = (n: number) => Math.round(minutesByDay.get(n) ?? 0);

  for (let n = first; n <= last; n++) {
    const d = dateOf(n);
    const worked = dayMinutes(n);
    if (rules.maxDailyMinutes !== null && worked > rules.maxDailyMinutes)
      breaches.push({
        rule: 'max_daily_hours',
        periodKey: d,
        measuredMinutes: worked,
        limitMinutes: rules.maxDailyMinutes,
        detail: `${hours(worked)} worked on ${d}`,
      });
    const dayShifts = shifts.get(n) ?? [];
    const shiftMinutes = Math.round(
      dayShifts.reduce((sum, i) => sum + (i.end.getTime() - i.start.getTime()) / MINUTE, 0),
    );
    if (rules.breakAfterMinutes !== null && shiftMinutes >= rules.breakAfterMinutes) {
      let longest = 0;
      for (let k = 1; k < dayShifts.length; k++)
        longest = Math.max(longest, (dayShifts[k].start.getTime() - dayShifts[k - 1].end.getTime()) / MINUTE);
      longest = Math.round(longest);
      if (longest < rules.minBreakMinutes)
        breaches.push({
          rule: 'min_break',
          periodKey: d,
          measuredMinutes: longest,
          limitMinutes: rules.minBreakMinutes,
          detail: `${hours(shiftMinutes)} worked from ${d} with a longest pause of ${longest} min`,
        });
    }
  }

  if (rules.minDailyRestMinutes !== null) {
    // Working days in order: the rest before one is from the latest exit of the days before it.
    let lastEnd = -Infinity;
    for (const n of [...shifts.keys()].sort((a, b) => a - b)) {
      const dayShifts = shifts.get(n)!;
      if (n >= first && n <= last && Number.isFinite(lastEnd)) {
        const rest = Math.max(0, Math.round((dayShifts[0].start.getTime() - lastEnd) / MINUTE));
        if (rest < rules.minDailyRestMinutes)
          breaches.push({
            rule: 'min_daily_rest',
            periodKey: dateOf(n),
            measuredMinutes: rest,
            limitMinutes: rules.minDailyRestMinutes,
            detail: `${hours(rest)} of rest before ${dateOf(n)}`,
          });
      }
      for (const i of dayShifts) lastEnd = Math.max(lastEnd, i.end.getTime());
    }
  }

  const weekMinutes = (monday: number) => {
    let sum = 0;
    for (let k = 0; k < 7; k++) sum += minutesByDay.get(monday + k) ?? 0;
    return Math.round(sum);
  };
  for (let monday = mondayOf(first); monday <= last; monday += 7) {
    const week = isoWeekOf(monday);
    const worked = weekMinutes(monday);
    if (rules.maxWeeklyMinutes !== null && worked > rules.maxWeeklyMinutes)
      breaches.push({
        rule: 'max_weekly_hours',
        periodKey: week,
        measuredMinutes: worked,
        limitMinutes: rules.maxWeeklyMinutes,
        detail: `${hours(worked)} worked in week ${week}`,
      });
    if (rules.maxAverageWeeklyMinutes !== null && worked > 0) {
      let total = 0;
      for (let k = 0; k < rules.averageWeeks; k++) total += weekMinutes(monday - 7 * k);
      const average = Math.round(total / rules.averageWeeks);
      if (average > rules.maxAverageWeeklyMinutes)
        breaches.push({
          rule: 'max_average_weekly_hours',
          periodKey: week,
          measuredMinutes: average,
          limitMinutes: rules.maxAverageWeeklyMinutes,
          detail: `${hours(average)} a week on average over the ${rules.averageWeeks} weeks to ${week}`,
        });
    }
    if (rules.minWeeklyRestMinutes !== null && worked > 0) {
      const start = dayStart(zone, monday);
      const end = dayStart(zone, monday + 7);
      // Rest periods are the gaps between intervals (open-ended before the first and after the last), counted
      // whole when they overlap the week.
      let longest = 0;
      let previousEnd = -Infinity;
      for (const i of [...intervals, { start: new Date(8.64e15), end: new Date(8.64e15), corrected: false }]) {
        const gapEnd = i.start.getTime();
        if (gapEnd > start && previousEnd < end)
          longest = Math.max(
            longest,
            (Math.min(gapEnd, end + 7 * DAY) - Math.max(previousEnd, start - 7 * DAY)) / MINUTE,
          );
        previousEnd = Math.max(previousEnd, i.end.getTime());
      }
      longest = Math.round(longest);
      if (longest < rules.minWeeklyRestMinutes)
        breaches.push({
          rule: 'min_weekly_rest',
          periodKey: week,
          measuredMinutes: longest,
          limitMinutes: rules.minWeeklyRestMinutes,
          detail: `longest rest of week ${week}: ${hours(longest)}`,
        });
    }
  }
  return breaches;
}
