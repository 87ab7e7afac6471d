import type { VatRegime } from '../../../../entities/core/ereport';
import { closedPeriodsFrom, lastDayOfMonth, periodFrom, periodOf } from './periods';

describe('e-reporting periods', () => {
  it.each<[VatRegime, string, string, string]>([
    ['real_monthly', '2026-12-01', '2026-12-01', '2026-12-10'],
    ['real_monthly', '2026-12-10', '2026-12-01', '2026-12-10'],
    ['real_monthly', '2026-12-11', '2026-12-11', '2026-12-20'],
    ['real_monthly', '2026-12-20', '2026-12-11', '2026-12-20'],
    ['real_monthly', '2026-12-21', '2026-12-21', '2026-12-31'],
    ['real_monthly', '2026-12-31', '2026-12-21', '2026-12-31'],
    ['real_monthly', '2026-11-30', '2026-11-21', '2026-11-30'],
    ['real_monthly', '2027-02-25', '2027-02-21', '2027-02-28'],
    ['real_monthly', '2028-02-29', '2028-02-21', '2028-02-29'],
    ['real_quarterly', '2026-12-03', '2026-12-01', '2026-12-31'],
    ['real_quarterly', '2028-02-01', '2028-02-01', '2028-02-29'],
    ['real_quarterly', '2100-02-15', '2100-02-01', '2100-02-28'],
    ['real_quarterly', '2000-02-15', '2000-02-01', '2000-02-29'],
    ['simplified', '2026-01-31', '2026-01-01', '2026-02-28'],
    ['simplified', '2028-02-29', '2028-01-01', '2028-02-29'],
    ['simplified', '2026-04-30', '2026-03-01', '2026-04-30'],
    ['simplified', '2026-11-01', '2026-11-01', '2026-12-31'],
    ['simplified', '2026-12-31', '2026-11-01', '2026-12-31'],
  ])('%s: %s is in %s..%s', (regime, date, start, end) => expect(periodOf(regime, date)).toEqual({ start, end }));

  it.each([
    [2026, 2, 28],
    [2028, 2, 29],
    [2100, 2, 28],
    [2000, 2, 29],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('%i-%i has %i days', (year, month, days) => expect(lastDayOfMonth(year, month)).toBe(days));

  it('lists the closed periods up to today, none that is still open', () => {
    expect(closedPeriodsFrom('real_monthly', '2026-11-21', '2026-12-11')).toEqual([
      { start: '2026-11-21', end: '2026-11-30' },
      { start: '2026-12-01', end: '2026-12-10' },
    ]);
    // The last day of a period is not over yet on that day.
    expect(closedPeriodsFrom('real_monthly', '2026-12-01', '2026-12-10')).toEqual([]);
    expect(closedPeriodsFrom('simplified', '2026-09-01', '2027-01-01')).toEqual([
      { start: '2026-09-01', end: '2026-10-31' },
      { start: '2026-11-01', end: '2026-12-31' },
    ]);
  });

  it('starts the first period of a new regime where the last reported one ended', () => {
    expect(periodFrom('real_quarterly', '2026-12-11')).toEqual({ start: '2026-12-11', end: '2026-12-31' });
    expect(closedPeriodsFrom('real_quarterly', '2026-12-11', '2027-02-01')).toEqual([
      { start: '2026-12-11', end: '2026-12-31' },
      { start: '2027-01-01', end: '2027-01-31' },
    ]);
  });
});
