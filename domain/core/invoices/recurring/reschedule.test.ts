import { AppError } from '../../../../lib/errors';
import { periodOf, runDate } from './periods';
import { firstRunOnOrAfter, reschedule, type Invoiced, type ScheduleTiming } from './reschedule';

/** Monthly on the 1st from 2026-01-01; periods 0 to 2 invoiced (January to March), period 3 next. */
const monthly: ScheduleTiming = {
  status: 'active',
  interval: 'monthly',
  dayOfPeriod: 1,
  startOn: '2026-01-01',
  endOn: null,
  maxCount: null,
  firstPeriod: 0,
  nextPeriod: 3,
  nextRunOn: '2026-04-01',
};
const threeDone: Invoiced = { count: 3, last: { start: '2026-03-01', end: '2026-03-31' } };
const none: Invoiced = { count: 0, last: null };
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return err instanceof AppError ? `${err.status} ${err.code}` : String(err);
  }
  return 'no error';
};

describe('rescheduling a recurring invoice', () => {
  it('finds the first day of a month on or after a date', () => {
    expect(firstRunOnOrAfter(15, '2026-04-01')).toBe('2026-04-15');
    expect(firstRunOnOrAfter(1, '2026-04-02')).toBe('2026-05-01');
    expect(firstRunOnOrAfter(31, '2026-02-10')).toBe('2026-02-28');
  });

  it('goes on from the first day no invoiced period covers, numbering on from the next period', () => {
    const t = reschedule(monthly, { interval: 'quarterly', dayOfPeriod: 15 }, threeDone, '2026-03-20');
    expect(t).toMatchObject({ ruleStartOn: '2026-04-15', rulePeriod: 3, nextPeriod: 3, nextRunOn: '2026-04-15' });
    expect([3, 4, 5].map((k) => runDate(t, k))).toEqual(['2026-04-15', '2026-07-15', '2026-10-15']);
    expect(periodOf(t, 3)).toEqual({ start: '2026-04-15', end: '2026-07-14' });
    // The invoiced periods keep their days (their runs hold them); the new rule never reaches back.
    expect(runDate(t, 3) > threeDone.last!.end).toBe(true);
  });

  it('never schedules in the past: a rule changed late starts today at the earliest', () => {
    const t = reschedule(monthly, { dayOfPeriod: 10 }, threeDone, '2026-04-12');
    expect(t.nextRunOn).toBe('2026-05-10');
    const yearly = { ...monthly, interval: 'yearly' as const, nextPeriod: 1, nextRunOn: '2027-01-01' };
    const once: Invoiced = { count: 1, last: { start: '2026-01-01', end: '2026-12-31' } };
    // A year invoiced in advance: monthly periods start when it is over, not now.
    expect(reschedule(yearly, { interval: 'monthly' }, once, '2026-02-01').nextRunOn).toBe('2027-01-01');
  });

  it('keeps the rule when only other fields change, and chains changes', () => {
    expect(reschedule(monthly, {}, threeDone, '2026-03-20')).toMatchObject({
      nextRunOn: '2026-04-01',
      ruleStartOn: null,
    });
    const first = reschedule(monthly, { interval: 'quarterly' }, threeDone, '2026-03-20');
    const done: Invoiced = { count: 4, last: periodOf(first, 3) };
    const second = reschedule({ ...first, nextPeriod: 4 }, { interval: 'monthly', dayOfPeriod: 5 }, done, '2026-05-01');
    expect(second).toMatchObject({ ruleStartOn: '2026-07-05', rulePeriod: 4, nextRunOn: '2026-07-05' });
  });

  it('moves startOn only while nothing is invoiced, restarting the count', () => {
    const fresh = { ...monthly, nextPeriod: 0, nextRunOn: '2026-01-01' };
    expect(reschedule(fresh, { startOn: '2026-02-03' }, none, '2026-01-01')).toMatchObject({
      startOn: '2026-02-03',
      firstPeriod: 1,
      nextPeriod: 1,
      nextRunOn: '2026-03-01',
    });
    expect(code(() => reschedule(monthly, { startOn: '2026-05-01' }, threeDone, '2026-03-20'))).toBe(
      '409 recurring_invoice_started',
    );
    expect(code(() => reschedule(fresh, { startOn: '2025-12-31' }, none, '2026-01-01'))).toBe('400 validation_failed');
  });

  it('ends at a nearer end or count, refuses one before what is invoiced', () => {
    expect(reschedule(monthly, { endOn: '2026-03-31' }, threeDone, '2026-03-20')).toMatchObject({
      status: 'ended',
      nextRunOn: null,
    });
    expect(reschedule(monthly, { maxCount: 3 }, threeDone, '2026-03-20')).toMatchObject({ status: 'ended' });
    expect(reschedule({ ...monthly, maxCount: 3 }, { maxCount: null }, threeDone, '2026-03-20')).toMatchObject({
      status: 'active',
      nextRunOn: '2026-04-01',
    });
    expect(code(() => reschedule(monthly, { endOn: '2026-02-15' }, threeDone, '2026-03-20'))).toBe(
      '400 validation_failed',
    );
    expect(code(() => reschedule(monthly, { maxCount: 2 }, threeDone, '2026-03-20'))).toBe('400 validation_failed');
  });

  it('pauses, and resumes past the periods of the pause and within the end', () => {
    expect(reschedule(monthly, { status: 'paused' }, threeDone, '2026-03-20')).toMatchObject({
      status: 'paused',
      nextRunOn: '2026-04-01',
    });
    const paused = { ...monthly, status: 'paused' as const };
    expect(reschedule(paused, { status: 'active' }, threeDone, '2026-06-02')).toMatchObject({
      status: 'active',
      nextPeriod: 6,
      nextRunOn: '2026-07-01',
    });
    expect(reschedule({ ...paused, endOn: '2026-06-30' }, { status: 'active' }, threeDone, '2026-06-02')).toMatchObject(
      {
        status: 'ended',
        nextRunOn: null,
      },
    );
  });
});
