import type { RecurringInterval } from '../../../../entities/core/recurringInvoice';
import { addDays } from '../../../../lib/calendar';

/** How many months a period of each interval spans. */
export const INTERVAL_MONTHS: Record<RecurringInterval, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export interface Cadence {
  interval: RecurringInterval;
  /** 1 to 31: the day of the period's first month it runs on (the month's last day when shorter). */
  dayOfPeriod: number;
  startOn: string;
  /** After a change of cadence: the month the rule's period `rulePeriod` runs in (null: startOn's, period 0). */
  ruleStartOn?: string | null;
  rulePeriod?: number;
}

export interface Bounds extends Cadence {
  endOn?: string | null;
  maxCount?: number | null;
  firstPeriod: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The day period `k` runs on: dayOfPeriod of startOn's month + k × the interval's months, clamped to that month
 * (after a change of cadence: of ruleStartOn's month + (k − rulePeriod) × the interval's months).
 */
export function runDate(c: Cadence, k: number): string {
  const [y, m] = (c.ruleStartOn ?? c.startOn).split('-').map(Number);
  const months = y * 12 + (m - 1) + (k - (c.ruleStartOn ? (c.rulePeriod ?? 0) : 0)) * INTERVAL_MONTHS[c.interval];
  const year = Math.floor(months / 12);
  const month = (months % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(c.dayOfPeriod, last))}`;
}

/** The first period: 0, or 1 when period 0's day comes before startOn. */
export const firstPeriodOf = (c: Cadence): number => (runDate(c, 0) < c.startOn ? 1 : 0);

/** The days period `k` covers: from its run day to the day before the next period's. */
export const periodOf = (c: Cadence, k: number) => ({ start: runDate(c, k), end: addDays(runDate(c, k + 1), -1) });

/** Whether period `k` is within the schedule's end date and count. */
export const withinBounds = (b: Bounds, k: number): boolean =>
  (!b.endOn || runDate(b, k) <= b.endOn) && (!b.maxCount || k - b.firstPeriod < b.maxCount);

/** The run day of period `k`, or null when the schedule ends before it. */
export const runDateWithin = (b: Bounds, k: number): string | null => (withinBounds(b, k) ? runDate(b, k) : null);

/** The first period from `k` on whose run day is `today` or later (resuming skips the periods of the pause). */
export function nextPeriodFrom(c: Cadence, k: number, today: string): number {
  let next = k;
  while (runDate(c, next) < today) next += 1;
  return next;
}
