import type { Half, LeaveCounting } from '../../entities/hr/leave';
import type { HrSchedule } from '../../entities/hr/schedule';
import type { Employment } from './employment';
import { leaveDays, type LeaveSpan } from './leaveDays';
import { fractionnementDays } from './paidLeave';

/**
 * The days of fractionnement of a taking period (pure; L3141-19 and L3141-23). The main leave (congé principal:
 * the first 24 jours ouvrables, 20 ouvrés) is to be taken between 1 May and 31 October; when part of it is
 * taken outside that window, 3 to 5 days outside earn 1 extra day, 6 or more earn 2 (fractionnementDays).
 * Counted over the taking period, 1 May to 30 April, once it has ended; an employee may waive the days.
 */

/** The taking period: 1 May of `year` to 30 April of the next year. Labelled by its first month (YYYY-05). */
export interface TakingPeriod {
  from: string;
  to: string;
  /** YYYY-05: the ledger period of its credit. */
  label: string;
  /** YYYY-04, the month whose accrual closes it. */
  lastMonth: string;
}

export function takingPeriodEndingIn(lastMonth: string): TakingPeriod | null {
  if (lastMonth.slice(5, 7) !== '04') return null;
  const year = Number(lastMonth.slice(0, 4)) - 1;
  return { from: `${year}-05-01`, to: `${year + 1}-04-30`, label: `${year}-05`, lastMonth };
}

/** The window of the main leave in a taking period (1 May - 31 October of its first year). */
export const mainLeaveWindow = (period: TakingPeriod) => ({
  from: period.from,
  to: `${period.from.slice(0, 4)}-10-31`,
});

/** The part of a span within [from, to] (halves kept where the span's own ends fall inside), or null. */
export function clipSpan(span: LeaveSpan, from: string, to: string): LeaveSpan | null {
  const startDate = span.startDate > from ? span.startDate : from;
  const endDate = span.endDate < to ? span.endDate : to;
  if (endDate < startDate) return null;
  const startHalf: Half = startDate === span.startDate ? span.startHalf : 'morning';
  const endHalf: Half = endDate === span.endDate ? span.endHalf : 'afternoon';
  if (startDate === endDate && startHalf === 'afternoon' && endHalf === 'morning') return null;
  return { startDate, startHalf, endDate, endHalf };
}

export interface FractionnementInput {
  period: TakingPeriod;
  counting: LeaveCounting;
  /** The employee's granted requests of the paid-leave type touching the period. */
  requests: LeaveSpan[];
  versions: Pick<HrSchedule, 'effectiveFrom' | 'slots'>[];
  employment: Employment;
  /** The employee's waiver (null: the organisation's default). */
  waived: boolean | null;
  waivedByDefault: boolean;
}

export interface Fractionnement {
  /** Days of the type taken in the period inside and outside 1 May - 31 October. */
  inside: number;
  outside: number;
  /** The extra days earned (0, 1 or 2), 0 when waived. */
  days: number;
  waived: boolean;
}

/**
 * What the taking period earns: each request's days within the period, split at the window in the type's
 * counting (leaveDays of each part; 1 May and 1 November are public holidays, so a split costs what the whole
 * does), the window's days counted first as the main leave.
 */
export function fractionnementOf(input: FractionnementInput): Fractionnement {
  const window = mainLeaveWindow(input.period);
  const days = (span: LeaveSpan | null) =>
    span ? leaveDays(span, input.counting, input.versions, input.employment) : 0;
  let inside = 0;
  let total = 0;
  for (const request of input.requests) {
    const inPeriod = clipSpan(request, input.period.from, input.period.to);
    if (!inPeriod) continue;
    const all = days(inPeriod);
    const within = Math.min(all, days(clipSpan(inPeriod, window.from, window.to)));
    inside += within;
    total += all;
  }
  const outside = Math.round((total - inside) * 100) / 100;
  const waived = input.waived ?? input.waivedByDefault;
  const earned = fractionnementDays(input.counting, inside, outside);
  return { inside, outside, days: waived ? 0 : earned, waived };
}

/** The reason written on the credit. */
export const fractionnementReason = (period: TakingPeriod, f: Fractionnement): string =>
  `Fractionnement ${period.from}..${period.to}: ${f.outside} day(s) of paid leave outside 1 May - 31 October, ${f.inside} inside`;
