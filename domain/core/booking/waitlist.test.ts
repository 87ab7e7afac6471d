import { dayBounds, localDayOf } from './waitlist';

describe('waitlist days', () => {
  it('bounds a local day in the business zone, DST days included', () => {
    expect(dayBounds('2026-07-01', 'Europe/Paris')).toEqual({
      from: new Date('2026-06-30T22:00:00Z'),
      to: new Date('2026-07-01T22:00:00Z'),
    });
    // The spring change: a 23-hour day.
    const { from, to } = dayBounds('2026-03-29', 'Europe/Paris');
    expect(to.getTime() - from.getTime()).toBe(23 * 3_600_000);
  });

  it('names the local day of an instant (a freed slot late in the UTC day may be the next local day)', () => {
    expect(localDayOf(new Date('2026-07-01T22:30:00Z'), 'Europe/Paris')).toBe('2026-07-02');
    expect(localDayOf(new Date('2026-07-01T03:00:00Z'), 'America/New_York')).toBe('2026-06-30');
  });
});
