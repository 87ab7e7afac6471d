import { addDays, dateOf, datesBetween, dayNumber, isCalendarDate, monthBounds, mondayOf, todayIn } from './calendar';

describe('calendar', () => {
  it('counts days across years, leap days and the first century', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    // Date.UTC reads years 0-99 as 1900-1999: day numbers must not.
    expect(dateOf(dayNumber('0050-06-15'))).toBe('0050-06-15');
    expect([...datesBetween('2026-01-30', '2026-02-02')]).toEqual([
      '2026-01-30',
      '2026-01-31',
      '2026-02-01',
      '2026-02-02',
    ]);
  });

  it('knows which dates exist', () => {
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('0000-01-01')).toBe(false);
  });

  it('finds Mondays, months and today in a zone', () => {
    expect(dateOf(mondayOf(dayNumber('2026-12-06')))).toBe('2026-11-30');
    expect(monthBounds('2024-02')).toEqual({ first: '2024-02-01', last: '2024-02-29' });
    // 23:30 UTC on 31 December is already New Year in Paris.
    expect(todayIn('Europe/Paris', new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(todayIn('America/New_York', new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });
});
