import { addDays, weekdayOf } from '../../lib/calendar';
import { employedOn, type Employment } from './employment';
import type { DayTime } from './workedTime';

/**
 * Forfait jours (L3121-58 to L3121-66, pure): cadres whose time is counted in days worked a year against a
 * forfait (at most 218, L3121-64), with no overtime nor maximum durations (L3121-62) but the daily and weekly
 * rests kept. What the yearly count gives the employer (the annual interview on workload, L3121-65) and payroll.
 */

/** A day with less work than this counts as a half day (the usual half-day forfait clause). */
export const HALF_DAY_MINUTES = 4 * 60;

/** Paid leave of a full year in jours ouvrés (L3141-3: 25). */
export const PAID_LEAVE_OUVRES = 25;

/** The days a worked day counts: 1, a half below HALF_DAY_MINUTES, nothing without work. */
export const dayCount = (minutes: number): number => (minutes <= 0 ? 0 : minutes < HALF_DAY_MINUTES ? 0.5 : 1);

/** Days worked among some local days (dailyTime), whole and half days. */
export const daysWorked = (days: Pick<DayTime, 'minutes'>[]): number =>
  days.reduce((n, d) => n + dayCount(d.minutes), 0);

export interface ForfaitYear {
  year: number;
  /** Monday to Friday of the year within the employment, public holidays excepted. */
  workableDays: number;
  /** The forfait, pro rata of the workable days employed for a year begun or ended mid-way (to the half day). */
  forfaitDays: number;
  /** Paid leave of the year on the same pro rata (25 days for a full year). */
  paidLeaveDays: number;
  /** Days of rest the forfait leaves (jours de repos): workable - paid leave - forfait, at least 0. */
  restDays: number;
}

const half = (n: number) => Math.round(n * 2) / 2;

/**
 * The year of a forfait: its workable days (weekdays of the employment, not public holidays), the forfait and
 * paid leave pro rata of them against a full year, and the rest days they leave. 2026, 218 days, full year:
 * 261 weekdays - 9 weekday holidays = 252 workable, 252 - 25 - 218 = 9 rest days.
 */
export function forfaitYear(
  year: number,
  forfait: number,
  employment: Employment,
  holidays: ReadonlySet<string>,
): ForfaitYear {
  let full = 0;
  let employed = 0;
  for (let d = `${year}-01-01`; d <= `${year}-12-31`; d = addDays(d, 1)) {
    if (weekdayOf(d) > 5 || holidays.has(d)) continue;
    full++;
    if (employedOn(employment, d)) employed++;
  }
  const share = full ? employed / full : 0;
  const forfaitDays = share === 1 ? forfait : half(forfait * share);
  const paidLeaveDays = share === 1 ? PAID_LEAVE_OUVRES : half(PAID_LEAVE_OUVRES * share);
  return {
    year,
    workableDays: employed,
    forfaitDays,
    paidLeaveDays,
    restDays: Math.max(0, employed - paidLeaveDays - forfaitDays),
  };
}
