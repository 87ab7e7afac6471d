import type { LeaveCounting } from '../../entities/hr/leave';
import { datesBetween, dayNumber, monthBounds } from '../../lib/calendar';
import { employedOn, type Employment } from './employment';

/**
 * The rules of congés payés as the Code du travail counts them (pure). Every credit or debit they make is one
 * ledger movement naming its rule (`PaidLeaveRule`), so a balance can be explained line by line.
 */

/** The rule a paid-leave movement applies. */
export const paidLeaveRules = [
  /** A full month at the type's rate (L3141-3: 2.5 ouvrables, 2.08 ouvrés). */
  'monthly_accrual',
  /** A month partly employed (arrival, departure): the rate times the share of the month's days employed. */
  'pro_rata',
  /** The last month of the reference period rounds what it earned up to a whole day (L3141-7). */
  'year_end_rounding',
  /** Days of non-professional sick leave: 2 ouvrables a month, at most 24 a reference period (L3141-5-1, 2024). */
  'sick_leave_acquisition',
  /** N-1 days not taken beyond the policy's carry-over when the reference period closes. */
  'carry_over_expiry',
  /** 1 or 2 extra days when part of the main leave is taken outside 1 May - 31 October (L3141-23). */
  'fractionnement',
] as const;
export type PaidLeaveRule = (typeof paidLeaveRules)[number];

const round2 = (n: number) => Math.round(n * 100) / 100;

// ---- reference period

/** The first month of the reference period by default: June (R3141-4: 1 June - 31 May). */
export const DEFAULT_REFERENCE_START_MONTH = 6;

export interface ReferencePeriod {
  /** First day (YYYY-MM-DD). */
  from: string;
  /** Last day (YYYY-MM-DD). */
  to: string;
  /** Its first and last month (YYYY-MM). */
  firstMonth: string;
  lastMonth: string;
}

const month = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;

/**
 * The reference period holding a day or a month (YYYY-MM-DD or YYYY-MM): from the 1st of `startMonth` to the
 * day before it a year later (1 June - 31 May by default; an agreement may choose another, e.g. the calendar year).
 */
export function referencePeriodOf(dayOrMonth: string, startMonth = DEFAULT_REFERENCE_START_MONTH): ReferencePeriod {
  const year = Number(dayOrMonth.slice(0, 4));
  const start = Number(dayOrMonth.slice(5, 7)) >= startMonth ? year : year - 1;
  const firstMonth = month(start, startMonth);
  const lastMonth = startMonth === 1 ? month(start, 12) : month(start + 1, startMonth - 1);
  return { from: `${firstMonth}-01`, to: monthBounds(lastMonth).last, firstMonth, lastMonth };
}

/** The reference period just before the one holding the day or month. */
export function previousReferencePeriod(dayOrMonth: string, startMonth = DEFAULT_REFERENCE_START_MONTH) {
  const { firstMonth } = referencePeriodOf(dayOrMonth, startMonth);
  return referencePeriodOf(month(Number(firstMonth.slice(0, 4)) - 1, startMonth), startMonth);
}

// ---- monthly acquisition

/** Acquisition during non-professional sick leave: 2 jours ouvrables a month, 24 a reference period (4 weeks). */
export const SICK_LEAVE_ACQUISITION: Record<LeaveCounting, { monthly: number; cap: number }> = {
  ouvrables: { monthly: 2, cap: 24 },
  // The same in jours ouvrés (5 for 6): 1.67 a month, 20 a period.
  ouvres: { monthly: 1.67, cap: 20 },
};

/** A span of days (inclusive) with halves, as a leave request holds them. */
export interface DaySpan {
  startDate: string;
  startHalf: 'morning' | 'afternoon';
  endDate: string;
  endHalf: 'morning' | 'afternoon';
}

/** The calendar days of a month the spans cover within the employment (a half counts 0.5; overlaps once). */
export function spanDaysIn(period: string, spans: DaySpan[], employment: Employment): number {
  const { first, last } = monthBounds(period);
  let halves = 0;
  for (const date of datesBetween(first, last)) {
    if (!employedOn(employment, date)) continue;
    const inHalf = (half: 'morning' | 'afternoon') =>
      spans.some(
        (s) =>
          date >= s.startDate &&
          date <= s.endDate &&
          !(date === s.startDate && half === 'morning' && s.startHalf === 'afternoon') &&
          !(date === s.endDate && half === 'afternoon' && s.endHalf === 'morning'),
      );
    halves += (inHalf('morning') ? 1 : 0) + (inHalf('afternoon') ? 1 : 0);
  }
  return halves / 2;
}

/** The calendar days of a month within the employment. */
export function employedDaysIn(period: string, employment: Employment): number {
  const { first, last } = monthBounds(period);
  let days = 0;
  for (const date of datesBetween(first, last)) if (employedOn(employment, date)) days++;
  return days;
}

export interface MonthAcquisitionInput {
  period: string;
  counting: LeaveCounting;
  /** The type's monthly rate, in its counting. */
  rate: number;
  employment: Employment;
  /** Calendar days of the month in non-professional sick leave (within the employment). */
  sickDays: number;
  /** What the earlier months of the reference period credited (accrual and sick-leave acquisition). */
  earnedBefore: number;
  /** Of which sick-leave acquisition (for its cap). */
  sickEarnedBefore: number;
  startMonth?: number;
}

export interface Acquisition {
  rule: PaidLeaveRule;
  days: number;
  reason: string;
}

/**
 * What a month credits, as at most two movements: the days worked (`monthly_accrual` for a full month,
 * `pro_rata` for a month partly employed or partly on sick leave: the rate times the share of the month's
 * calendar days employed and not on sick leave; `year_end_rounding` on the last month of the reference period
 * when it rounds the period's total up to a whole day), and the days on non-professional sick leave
 * (`sick_leave_acquisition`: 2 ouvrables a month in proportion, up to 24 a period). Nothing for a month outside
 * the employment.
 */
export function monthAcquisition(input: MonthAcquisitionInput): {
  worked: Acquisition | null;
  sick: Acquisition | null;
} {
  const { period, rate, counting } = input;
  const monthDays = dayNumber(monthBounds(period).last) - dayNumber(monthBounds(period).first) + 1;
  const employed = employedDaysIn(period, input.employment);
  if (!employed) return { worked: null, sick: null };
  const sickDays = Math.min(input.sickDays, employed);
  const workedShare = (employed - sickDays) / monthDays;

  const law = SICK_LEAVE_ACQUISITION[counting];
  const sickRoom = Math.max(0, round2(law.cap - input.sickEarnedBefore));
  const sickDaysEarned = Math.min(sickRoom, round2((law.monthly * sickDays) / monthDays));
  const sick: Acquisition | null =
    sickDaysEarned > 0
      ? {
          rule: 'sick_leave_acquisition',
          days: sickDaysEarned,
          reason: `Sick leave ${period}: ${sickDays} day(s), ${law.monthly} a month up to ${law.cap} a reference period`,
        }
      : null;

  let days = round2(rate * workedShare);
  let rule: PaidLeaveRule = workedShare === 1 ? 'monthly_accrual' : 'pro_rata';
  let reason =
    rule === 'monthly_accrual'
      ? `Accrual ${period}`
      : `Accrual ${period}, pro rata ${employed - sickDays}/${monthDays} days`;
  const refPeriod = referencePeriodOf(period, input.startMonth);
  if (period === refPeriod.lastMonth) {
    const total = round2(input.earnedBefore + days + (sick?.days ?? 0));
    const rounded = round2(Math.ceil(total) - input.earnedBefore - (sick?.days ?? 0));
    if (rounded !== days) {
      days = rounded;
      rule = 'year_end_rounding';
      reason = `${reason}, the reference period to ${refPeriod.to} rounded up to a whole day`;
    }
  }
  return { worked: days > 0 ? { rule, days, reason } : null, sick };
}

// ---- balances N-1 / N

export interface BalanceLine {
  /** Signed days. */
  days: number;
  /** Credits the period earned them in (YYYY-MM); null for a debit or an undated adjustment. */
  earnedIn: string | null;
}

export interface SplitBalance {
  /** N-1: the days earned in earlier reference periods, to be taken now (spent first). */
  previous: number;
  /** N: the days being earned in the current reference period (spent once N-1 is used up). */
  current: number;
  total: number;
}

/**
 * Splits a balance into N-1 and N on a day: credits earned in the reference period holding the day are N, the
 * others N-1; every debit (requests, expiries, undated adjustments) and every reversal spends or gives back N-1
 * first, and only what exceeds N-1 is taken from N (leave taken in advance).
 */
export function splitBalance(lines: BalanceLine[], today: string, startMonth?: number): SplitBalance {
  const { firstMonth } = referencePeriodOf(today, startMonth);
  let current = 0;
  let rest = 0;
  for (const l of lines) {
    if (l.days > 0 && l.earnedIn && l.earnedIn >= firstMonth) current += l.days;
    else rest += l.days;
  }
  return splitSums(current, rest);
}

/** splitBalance from its two sums: the credits earned in the current period, and every other movement. */
export function splitSums(currentCredits: number, rest: number): SplitBalance {
  const previous = round2(Math.max(0, rest));
  const current = round2(currentCredits + Math.min(0, rest));
  return { previous, current, total: round2(previous + current) };
}

/**
 * What expires when a reference period closes: the N-1 days not taken beyond what the policy carries over
 * (`carryOverDays`: null carries everything, 0 nothing). The days N become N-1 of the next period.
 */
export function expiringDays(previous: number, carryOverDays: number | null): number {
  if (carryOverDays === null) return 0;
  return round2(Math.max(0, previous - carryOverDays));
}

// ---- fractionnement

/**
 * The days of fractionnement (L3141-23): the main leave (the first 4 weeks, 24 ouvrables / 20 ouvrés) taken in
 * the period has part of it outside 1 May - 31 October: 6 ouvrables (5 ouvrés) or more outside give 2 extra
 * days, 3 to 5 (3 to 4.5 ouvrés) give 1. `outside` and `inside` are the days of paid leave taken outside and
 * inside 1 May - 31 October, inside counted first as the main leave. Applied to a taking period by
 * domain/hr/fractionnement.ts.
 */
export function fractionnementDays(counting: LeaveCounting, inside: number, outside: number): number {
  const main = counting === 'ouvrables' ? 24 : 20;
  const twoFrom = counting === 'ouvrables' ? 6 : 5;
  const mainOutside = Math.max(0, Math.min(inside + outside, main) - Math.min(inside, main));
  return mainOutside >= twoFrom ? 2 : mainOutside >= 3 ? 1 : 0;
}

/** Whether a day is in the main leave's legal window (1 May - 31 October). */
export const inMainLeaveWindow = (date: string): boolean => date.slice(5) >= '05-01' && date.slice(5) <= '10-31';
