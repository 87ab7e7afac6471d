import { firstPeriodOf, nextPeriodFrom, periodOf, runDate, runDateWithin, type Bounds } from './periods';

describe('recurring periods', () => {
  it.each([
    ['monthly', 31, '2026-01-10', 1, '2026-02-28'],
    ['monthly', 31, '2028-01-10', 1, '2028-02-29'],
    ['monthly', 15, '2026-11-20', 2, '2027-01-15'],
    ['quarterly', 1, '2026-01-01', 3, '2026-10-01'],
    ['quarterly', 30, '2026-11-30', 1, '2027-02-28'],
    ['yearly', 29, '2028-02-01', 1, '2029-02-28'],
  ] as const)('%s on day %p from %s: period %p runs on %s', (interval, dayOfPeriod, startOn, k, day) => {
    expect(runDate({ interval, dayOfPeriod, startOn }, k)).toBe(day);
  });

  it('starts at the first run day on or after the start date', () => {
    expect(firstPeriodOf({ interval: 'monthly', dayOfPeriod: 5, startOn: '2026-03-05' })).toBe(0);
    expect(firstPeriodOf({ interval: 'monthly', dayOfPeriod: 5, startOn: '2026-03-06' })).toBe(1);
  });

  it('covers a period up to the day before the next one', () => {
    expect(periodOf({ interval: 'quarterly', dayOfPeriod: 1, startOn: '2026-01-01' }, 1)).toEqual({
      start: '2026-04-01',
      end: '2026-06-30',
    });
  });

  it('ends at the end date or after the count', () => {
    const b: Bounds = {
      interval: 'monthly',
      dayOfPeriod: 1,
      startOn: '2026-01-15',
      endOn: null,
      maxCount: 2,
      firstPeriod: 1,
    };
    expect([1, 2, 3].map((k) => runDateWithin(b, k))).toEqual(['2026-02-01', '2026-03-01', null]);
    const e: Bounds = { ...b, maxCount: null, endOn: '2026-03-01' };
    expect([2, 3].map((k) => runDateWithin(e, k))).toEqual(['2026-03-01', null]);
  });

  it('resumes at the first period still to come', () => {
    expect(nextPeriodFrom({ interval: 'monthly', dayOfPeriod: 10, startOn: '2026-01-01' }, 1, '2026-05-11')).toBe(5);
    expect(nextPeriodFrom({ interval: 'monthly', dayOfPeriod: 10, startOn: '2026-01-01' }, 1, '2026-05-10')).toBe(4);
  });
});
