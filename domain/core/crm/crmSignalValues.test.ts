import { daysSince, momentumValue, overdueValue, recencyValue, trendValue } from './crmSignalValues';
import { riskOf, scoreOf, type ScoredSignal } from './healthSignals';

const reading = (key: string, weight: number, value: number): ScoredSignal => ({
  key,
  label: key,
  weight,
  value,
  detail: '',
  facts: {},
});

describe('CRM health signals', () => {
  it('recency: full up to 14 days, linear down to 0 at 90 days, 0 when never contacted', () => {
    expect(recencyValue(0)).toBe(1);
    expect(recencyValue(14)).toBe(1);
    expect(recencyValue(15)).toBe(0.987);
    expect(recencyValue(52)).toBe(0.5);
    expect(recencyValue(89)).toBe(0.013);
    expect(recencyValue(90)).toBe(0);
    expect(recencyValue(400)).toBe(0);
    expect(recencyValue(null)).toBe(0);
  });

  it('counts whole days since the last contact, a future one as today', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(daysSince(new Date('2026-03-01T12:00:01Z'), now)).toBe(13);
    expect(daysSince(new Date('2026-03-01T12:00:00Z'), now)).toBe(14);
    expect(daysSince(new Date('2026-03-16T00:00:00Z'), now)).toBe(0);
    expect(daysSince(null, now)).toBeNull();
  });

  it('overdue tasks: a quarter off per overdue follow-up, never below 0', () => {
    expect([0, 1, 2, 3, 4, 9].map(overdueValue)).toEqual([1, 0.75, 0.5, 0.25, 0, 0]);
  });

  it('deal momentum: the share of open deals moved lately', () => {
    expect(momentumValue(0, 3)).toBe(0);
    expect(momentumValue(1, 3)).toBe(0.333);
    expect(momentumValue(2, 3)).toBe(0.667);
    expect(momentumValue(4, 4)).toBe(1);
  });

  it('activity trend: steady 0.5, growing to 1, fading to 0, none at all 0', () => {
    expect(trendValue(5, 5)).toBe(0.5);
    expect(trendValue(10, 0)).toBe(1);
    expect(trendValue(0, 10)).toBe(0);
    expect(trendValue(6, 3)).toBe(0.75);
    expect(trendValue(3, 6)).toBe(0.25);
    expect(trendValue(0, 0)).toBe(0);
  });

  it('scores the weighted mean of the signals that apply, 50 when none does', () => {
    // recency 30 × 1, overdue 20 × 0.5, trend 10 × 0.5: 100 × 45 / 60 = 75.
    expect(
      scoreOf([reading('recency', 30, 1), reading('overdue_tasks', 20, 0.5), reading('activity_trend', 10, 0.5)]),
    ).toEqual({ score: 75, risk: 'low' });
    expect(scoreOf([])).toEqual({ score: 50, risk: 'medium' });
    // Values outside [0, 1] (a module's signal) count as their bound.
    expect(scoreOf([reading('a', 10, 1.5), reading('b', 10, -1)])).toEqual({ score: 50, risk: 'medium' });
    expect(scoreOf([reading('recency', 30, 0), reading('overdue_tasks', 20, 0)])).toEqual({ score: 0, risk: 'high' });
  });

  it('reads the risk from the score: low from 70, medium from 40, high below', () => {
    expect([100, 70, 69, 40, 39, 0].map(riskOf)).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
  });
});
