import { DateTime } from 'luxon';
import { invalidField } from '../../lib/errors';
import { DEFAULT_TIME_ZONE } from './zones';

/** The month before now in the default zone, YYYY-MM. */
export const previousMonth = (now = new Date()) => DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE }).minus({ months: 1 }).toFormat('yyyy-MM');

/** The last `count` months that have ended at `now` in the default zone, oldest first (YYYY-MM). */
export function endedMonths(count: number, now = new Date()): string[] {
  const current = DateTime.fromJSDate(now, { zone: DEFAULT_TIME_ZONE }).startOf('month');
  return Array.from({ length: count }, (_, i) => current.minus({ months: count - i }).toFormat('yyyy-MM'));
}

/** First and last local dates of a month YYYY-MM. */
export function monthBounds(period: string): { first: string; last: string } {
  const start = DateTime.fromFormat(period, 'yyyy-MM', { zone: 'utc' });
  if (!start.isValid) throw invalidField('period', 'must be a month YYYY-MM');
  return { first: start.toISODate()!, last: start.endOf('month').toISODate()! };
}

/** 400 for a month that has not ended yet (nothing is earned for it yet). */
export function checkEndedMonth(period: string, now = new Date()): void {
  if (period > previousMonth(now)) throw invalidField('period', 'must be a month that has ended');
}
