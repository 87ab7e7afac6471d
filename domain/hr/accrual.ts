import type { LeaveCounting } from '../../entities/hr/leave';

/**
 * The rules of monthly leave accrual (pure). Paid leave is earned 2.5 jours ouvrables a month, 30 a year
 * (Code du travail L3141-3), or its equivalent in jours ouvrés, 25 a year (2.08 a month), over a reference year
 * from 1 June to 31 May (R3141-4). A type's accrualDaysPerMonth is in its own counting.
 */

/** The law's monthly accrual of paid leave in each counting (2.5 ouvrables; 25 / 12 ouvrés, 2.08 to the cent). */
export const MONTHLY_PAID_LEAVE: Record<LeaveCounting, number> = { ouvrables: 2.5, ouvres: 2.08 };
/** The law's yearly paid leave in jours ouvrés: five weeks of five days. */
const YEARLY_OUVRES = 25;
/** The month the reference year starts (June). */
export const REFERENCE_YEAR_FIRST_MONTH = 6;

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * The counting of a type made without one: a type accruing more than the 25 jours ouvrés a year (paid leave at
 * 2.5 a month) counts jours ouvrables, so that it gives five weeks and not six; any other counts worked days.
 */
export const defaultCounting = (accrualDaysPerMonth: number): LeaveCounting =>
  accrualDaysPerMonth * 12 > YEARLY_OUVRES ? 'ouvrables' : 'ouvres';

/** The months (YYYY-MM) of the reference year holding a month: its first, and its last (May). */
export function referenceYearOf(period: string): { first: string; last: string } {
  const year = Number(period.slice(0, 4));
  const start = Number(period.slice(5, 7)) >= REFERENCE_YEAR_FIRST_MONTH ? year : year - 1;
  const month = (y: number, m: number) => `${y}-${String(m).padStart(2, '0')}`;
  const lastMonth = ((REFERENCE_YEAR_FIRST_MONTH + 10) % 12) + 1;
  return {
    first: month(start, REFERENCE_YEAR_FIRST_MONTH),
    last: month(lastMonth === 12 ? start : start + 1, lastMonth),
  };
}

/**
 * The days a month credits: the type's monthly rate; the last month of a reference year also rounds what the
 * year earned up to a whole day (L3141-7: a fraction of a day is a whole day), so 12 x 2.08 ouvrés make 25 and
 * 7 x 2.5 ouvrables 18. `earnedBefore` is what the earlier months of the same reference year credited.
 */
export function monthlyAccrual(rate: number, period: string, earnedBefore: number): number {
  if (period !== referenceYearOf(period).last) return rate;
  const year = round2(earnedBefore + rate);
  return round2(Math.ceil(year) - earnedBefore);
}
