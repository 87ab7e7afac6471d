import { failedLongEnough, nextRetryDelay, parseRetrySchedule } from './retrySchedule';

describe('retry schedule', () => {
  const schedule = parseRetrySchedule('5,300,1800,7200,18000,36000,36000');

  it('parses seconds into ms and covers about a day', () => {
    expect(schedule).toEqual([5000, 300000, 1800000, 7200000, 18000000, 36000000, 36000000]);
    const hours = schedule.reduce((a, b) => a + b, 0) / 3600_000;
    expect(hours).toBeGreaterThan(24);
    expect(hours).toBeLessThan(30);
  });

  it.each(['1,x', '-1'])('refuses %s', (raw) => expect(() => parseRetrySchedule(raw)).toThrow());

  it.each([
    [1, 5000],
    [2, 300000],
    [7, 36000000],
    [8, null],
    [0, null],
  ])('after %s failed attempts waits %s', (attempts, wait) => {
    expect(nextRetryDelay(schedule, attempts, () => 0)).toBe(wait);
  });

  it('adds at most 10% jitter', () => expect(nextRetryDelay(schedule, 1, () => 1)).toBe(5500));

  it.each([
    [null, 0, false],
    [0, 71, false],
    [0, 72, true],
  ])('failing since %s, %s hours later: disabled %s', (since, hoursLater, expected) => {
    const start = new Date('2026-12-01T00:00:00Z');
    const now = new Date(start.getTime() + hoursLater * 3600_000);
    expect(failedLongEnough(since === null ? null : start, now, 72)).toBe(expected);
  });
});
