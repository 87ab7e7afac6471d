import type { RecurringInterval, RecurringStatus } from '../../../../entities/core/recurringInvoice';
import { addDays } from '../../../../lib/calendar';
import { conflict, invalidField } from '../../../../lib/errors';
import { firstPeriodOf, nextPeriodFrom, runDate, runDateWithin, type Bounds } from './periods';

/** A schedule's timing as stored: its rule, bounds and where it stands. */
export interface ScheduleTiming extends Bounds {
  status: RecurringStatus;
  nextPeriod: number;
  nextRunOn?: string | null;
}

/** What a PATCH may change of the timing; null clears endOn or maxCount. */
export interface TimingChange {
  interval?: RecurringInterval;
  dayOfPeriod?: number;
  startOn?: string;
  endOn?: string | null;
  maxCount?: number | null;
  status?: 'active' | 'paused';
}

/** The periods already invoiced: how many, and the days the latest one covers (null when none). */
export interface Invoiced {
  count: number;
  last: { start: string; end: string } | null;
}

export type TimingFields = Required<Omit<ScheduleTiming, 'ruleStartOn' | 'rulePeriod'>> & {
  ruleStartOn: string | null;
  rulePeriod: number;
};

export const recurringStarted = () =>
  conflict('recurring_invoice_started', 'A period is invoiced already: startOn can no longer change');

/**
 * The timing after a PATCH (pure; applied under the schedule's row lock). Invoiced periods never change: their
 * runs keep their numbers and days. A new interval or day of period applies from the first day no invoiced
 * period covers (the day after the latest one's end, startOn when none), today at the earliest: its first period
 * is the first day of the new rule on or after it, numbered `nextPeriod` (numbers go on increasing, so the unique
 * (schedule, period) key still holds; days between the old coverage and that first day are not invoiced, there
 * is no proration). startOn changes only while nothing is invoiced (409 recurring_invoice_started), and restarts
 * the count as creating did. endOn and maxCount apply to the next period: one they exclude ends the schedule.
 * Resuming (status active on a paused one) skips the periods of the pause, as POST .../resume. 400 for an endOn
 * before startOn or before the latest invoiced period, a maxCount below the invoices made, a startOn in the past.
 */
export function reschedule(s: ScheduleTiming, change: TimingChange, invoiced: Invoiced, today: string): TimingFields {
  const interval = change.interval ?? s.interval;
  const dayOfPeriod = change.dayOfPeriod ?? s.dayOfPeriod;
  let startOn = s.startOn;
  let firstPeriod = s.firstPeriod;
  let nextPeriod = s.nextPeriod;
  let ruleStartOn = s.ruleStartOn ?? null;
  let rulePeriod = s.rulePeriod ?? 0;

  if (change.startOn !== undefined && change.startOn !== s.startOn) {
    if (invoiced.count > 0) throw recurringStarted();
    if (change.startOn < today) throw invalidField('startOn', 'startOn must be today or later');
    startOn = change.startOn;
    ruleStartOn = null;
    rulePeriod = 0;
    firstPeriod = firstPeriodOf({ interval, dayOfPeriod, startOn });
    nextPeriod = firstPeriod;
  } else if (interval !== s.interval || dayOfPeriod !== s.dayOfPeriod) {
    const uncovered = invoiced.last ? addDays(invoiced.last.end, 1) : s.startOn;
    const from = uncovered > today ? uncovered : today;
    ruleStartOn = firstRunOnOrAfter(dayOfPeriod, from);
    rulePeriod = nextPeriod;
  }

  const endOn = change.endOn !== undefined ? change.endOn : (s.endOn ?? null);
  const maxCount = change.maxCount !== undefined ? change.maxCount : (s.maxCount ?? null);
  if (endOn !== null && endOn < startOn) throw invalidField('endOn', 'endOn must not precede startOn');
  if (endOn !== null && invoiced.last && endOn < invoiced.last.start)
    throw invalidField('endOn', `endOn must not precede the latest invoiced period (${invoiced.last.start})`);
  if (maxCount !== null && maxCount < invoiced.count)
    throw invalidField('maxCount', `maxCount must be at least ${invoiced.count}, the invoices already made`);

  const timing = { interval, dayOfPeriod, startOn, ruleStartOn, rulePeriod, endOn, maxCount, firstPeriod };
  const target = change.status ?? s.status;
  if (target === 'active' && s.status === 'paused') nextPeriod = nextPeriodFrom(timing, nextPeriod, today);
  const nextRunOn = runDateWithin(timing, nextPeriod);
  return { ...timing, nextPeriod, nextRunOn, status: nextRunOn ? target : 'ended' };
}

/** The first day on or after `from` that is `dayOfPeriod` of its month (the month's last day when shorter). */
export function firstRunOnOrAfter(dayOfPeriod: number, from: string): string {
  const months = { interval: 'monthly' as const, dayOfPeriod, startOn: from };
  return runDate(months, firstPeriodOf(months));
}
