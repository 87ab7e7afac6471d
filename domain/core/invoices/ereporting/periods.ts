import type { VatRegime } from '../../../../entities/core/ereport';
import { addDays } from '../../../../lib/calendar';

/** A reporting period: its first and last day (YYYY-MM-DD, both included). */
export interface ReportingPeriod {
  start: string;
  end: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The last day of a month (month 1-12): 28, 29 (leap years), 30 or 31. */
export const lastDayOfMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The e-reporting period of a day under the organisation's VAT regime (the DGFiP's calendar of transmissions):
 *  - real_monthly (réel normal, monthly VAT returns): decades, days 1-10, 11-20 and 21 to the month's end;
 *  - real_quarterly (réel normal, quarterly returns): the calendar month;
 *  - simplified (régime simplifié d'imposition, franchise): two calendar months, January-February, March-April ...
 */
export function periodOf(regime: VatRegime, date: string): ReportingPeriod {
  const [year, month, day] = date.split('-').map(Number);
  const ym = `${year}-${pad(month)}`;
  if (regime === 'real_monthly') {
    if (day <= 10) return { start: `${ym}-01`, end: `${ym}-10` };
    if (day <= 20) return { start: `${ym}-11`, end: `${ym}-20` };
    return { start: `${ym}-21`, end: `${ym}-${pad(lastDayOfMonth(year, month))}` };
  }
  if (regime === 'real_quarterly') return { start: `${ym}-01`, end: `${ym}-${pad(lastDayOfMonth(year, month))}` };
  const first = month % 2 === 1 ? month : month - 1;
  return {
    start: `${year}-${pad(first)}-01`,
    end: `${year}-${pad(first + 1)}-${pad(lastDayOfMonth(year, first + 1))}`,
  };
}

/**
 * The period starting on `start` (the day after the last one reported): the regime's period of that day, from
 * that day. It is the whole period but after a change of regime, when the first period under the new one starts
 * where the last reported period ended (never overlapping what was reported).
 */
export const periodFrom = (regime: VatRegime, start: string): ReportingPeriod => ({
  start,
  end: periodOf(regime, start).end,
});

/**
 * The periods to report, in order, from `start` (the day after the last reported period, or the first day with
 * something to report) up to the last one closed on `today` (a period is closed once its last day has passed).
 */
export function closedPeriodsFrom(regime: VatRegime, start: string, today: string): ReportingPeriod[] {
  const periods: ReportingPeriod[] = [];
  for (let p = periodFrom(regime, start); p.end < today; p = periodFrom(regime, addDays(p.end, 1))) periods.push(p);
  return periods;
}
