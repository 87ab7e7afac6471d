import type { HrSchedule } from '../../entities/hr/schedule';
import { addDays, dateOf, dayNumber, dayStart, localDay, localInstant, mondayOf } from '../../lib/calendar';
import { employedOn, type Employment } from './employment';
import { slotMinutes, versionOn } from './schedules';

/**
 * Worked time from the punches (pure): the effective work intervals (domain/hr/timeline.ts, corrections applied)
 * cut into local days and ISO weeks, with night and Sunday hours flagged, and a week's overtime beyond the legal
 * 35 h at the rates of the agreement (L3121-27, L3121-36: +25 % for the first 8 hours, +50 % beyond by default),
 * against the annual contingent (L3121-30: 220 h by default).
 */

/** A worked span (the effective intervals of timeline.ts). */
export interface Span {
  start: Date;
  end: Date;
}

/** The night period by default (L3122-2: 21:00 to 06:00), as local minutes of the day. */
export const DEFAULT_NIGHT = { fromMinute: 21 * 60, toMinute: 6 * 60 };

export interface DayTime {
  /** Local date. */
  date: string;
  minutes: number;
  /** Of them, between the night bounds (21:00 - 06:00 local by default). */
  nightMinutes: number;
  /** Of them, on a Sunday (all of the day's). */
  sundayMinutes: number;
}

const MINUTE_MS = 60_000;
const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * The worked minutes of each local day (in `zone`) the spans touch, oldest first: a span across midnight counts
 * on both days; night minutes are those before `toMinute` or from `fromMinute` of the local day (its wall clock,
 * so a DST day still ends its night at 06:00).
 */
export function dailyTime(spans: Span[], zone: string, night = DEFAULT_NIGHT): DayTime[] {
  const days = new Map<number, DayTime>();
  for (const span of spans) {
    let t = span.start.getTime();
    const end = span.end.getTime();
    while (t < end) {
      const day = localDay(zone, t);
      const dayEnd = dayStart(zone, day + 1);
      const until = Math.min(end, dayEnd);
      const midnight = dayStart(zone, day);
      const local = (minute: number) => localInstant(dateOf(day), hhmm(minute), zone).getTime();
      const overlap = (a: number, b: number) => Math.max(0, Math.min(until, b) - Math.max(t, a));
      const nightMs = overlap(midnight, local(night.toMinute)) + overlap(local(night.fromMinute), dayEnd);
      const entry =
        days.get(day) ?? days.set(day, { date: dateOf(day), minutes: 0, nightMinutes: 0, sundayMinutes: 0 }).get(day)!;
      const ms = until - t;
      entry.minutes += ms / MINUTE_MS;
      entry.nightMinutes += nightMs / MINUTE_MS;
      if ((day + 3) % 7 === 6) entry.sundayMinutes += ms / MINUTE_MS;
      t = until;
    }
  }
  return [...days.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, d]) => ({
      ...d,
      minutes: Math.round(d.minutes),
      nightMinutes: Math.round(d.nightMinutes),
      sundayMinutes: Math.round(d.sundayMinutes),
    }));
}

// ---- weeks and overtime

/** The rates of overtime by the agreement (L3121-33): the first tier and beyond. */
export interface OvertimeRates {
  /** Minutes a week beyond which hours are overtime (35 h). */
  weeklyMinutes: number;
  /** Minutes of overtime at the first rate (8 h: the 36th to the 43rd hour). */
  firstTierMinutes: number;
  /** Increase of the first tier and beyond, in percent (25, 50; at least 10 by agreement). */
  firstRate: number;
  secondRate: number;
}

export const DEFAULT_OVERTIME: OvertimeRates = {
  weeklyMinutes: 35 * 60,
  firstTierMinutes: 8 * 60,
  firstRate: 25,
  secondRate: 50,
};

/** No overtime at all (employees au forfait jours, L3121-62): a threshold no week reaches. */
export const NO_OVERTIME: OvertimeRates = { ...DEFAULT_OVERTIME, weeklyMinutes: 7 * 24 * 60 };

export interface WeekTime {
  /** Monday of the ISO week (local). */
  week: string;
  minutes: number;
  nightMinutes: number;
  sundayMinutes: number;
  /** The schedule's minutes for the week, and worked minus scheduled. */
  scheduledMinutes: number;
  deltaMinutes: number;
  /** Overtime minutes at the first and at the second rate. */
  overtimeFirstMinutes: number;
  overtimeSecondMinutes: number;
  /** Repos compensateur de remplacement: the rest the overtime earns instead of pay (minutes x (1 + rate)). */
  replacementRestMinutes: number;
}

/** The ISO week (its Monday) of a local date. */
export const weekOf = (date: string): string => dateOf(mondayOf(dayNumber(date)));

/**
 * A week's counter from its days (dailyTime, the days of one ISO week): overtime is what passes the weekly
 * minutes, the first `firstTierMinutes` at the first rate and the rest at the second; with `replacementRest`
 * (repos compensateur de remplacement) the same hours earn rest instead: each minute its increase included.
 */
export function weekTime(
  week: string,
  days: DayTime[],
  scheduledMinutes: number,
  rates: OvertimeRates = DEFAULT_OVERTIME,
  replacementRest = false,
): WeekTime {
  const sum = (f: (d: DayTime) => number) => days.reduce((s, d) => s + f(d), 0);
  const minutes = sum((d) => d.minutes);
  const overtime = Math.max(0, minutes - rates.weeklyMinutes);
  const first = Math.min(overtime, rates.firstTierMinutes);
  const second = overtime - first;
  return {
    week,
    minutes,
    nightMinutes: sum((d) => d.nightMinutes),
    sundayMinutes: sum((d) => d.sundayMinutes),
    scheduledMinutes,
    deltaMinutes: minutes - scheduledMinutes,
    overtimeFirstMinutes: first,
    overtimeSecondMinutes: second,
    replacementRestMinutes: replacementRest
      ? Math.round(first * (1 + rates.firstRate / 100) + second * (1 + rates.secondRate / 100))
      : 0,
  };
}

/** The weeks (weekTime) of days, by ISO week, oldest first; `scheduled` gives a week's scheduled minutes. */
export function weeksOf(
  days: DayTime[],
  scheduled: (week: string) => number,
  rates: OvertimeRates = DEFAULT_OVERTIME,
  replacementRest = false,
): WeekTime[] {
  const byWeek = new Map<string, DayTime[]>();
  for (const d of days) (byWeek.get(weekOf(d.date)) ?? byWeek.set(weekOf(d.date), []).get(weekOf(d.date))!).push(d);
  return [...byWeek.keys()]
    .sort()
    .map((week) => weekTime(week, byWeek.get(week)!, scheduled(week), rates, replacementRest));
}

// ---- annual contingent

/** The annual contingent of overtime by default (D3121-24: 220 hours), and the shares that raise an alert. */
export const DEFAULT_CONTINGENT_MINUTES = 220 * 60;
export const CONTINGENT_ALERT_SHARES = [0.8, 0.9, 1] as const;

/**
 * The alerts a week's overtime raises against the annual contingent: each share of it (80 %, 90 %, 100 %)
 * crossed by the week (used before < share <= used after). Overtime compensated by replacement rest does not
 * count against it (L3121-30).
 */
export function contingentAlerts(
  usedBefore: number,
  weekOvertime: number,
  contingent = DEFAULT_CONTINGENT_MINUTES,
): { share: number; usedMinutes: number }[] {
  const after = usedBefore + weekOvertime;
  return CONTINGENT_ALERT_SHARES.filter((s) => usedBefore < s * contingent && after >= s * contingent).map((share) => ({
    share,
    usedMinutes: after,
  }));
}

// ---- the schedule

/**
 * The minutes a week's schedule plans (the version in force each day, `versions` oldest first) on the days of
 * the employment that are not public holidays.
 */
export function scheduledMinutesOfWeek(
  monday: string,
  employment: Employment,
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[],
  holidays: ReadonlySet<string>,
): number {
  let minutes = 0;
  for (let i = 0; i < 7; i++) {
    const date = addDays(monday, i);
    if (!employedOn(employment, date) || holidays.has(date)) continue;
    for (const slot of versionOn(versions, date)?.slots ?? []) if (slot.weekday === i + 1) minutes += slotMinutes(slot);
  }
  return minutes;
}
