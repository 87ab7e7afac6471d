import { dayCount, daysWorked, forfaitYear } from './forfaitDays';
import { holidayDates } from './publicHolidays';

const holidays = (year: number) => holidayDates(`${year}-01-01`, `${year}-12-31`);

describe('forfait jours', () => {
  it.each([
    [0, 0],
    [1, 0.5],
    [239, 0.5],
    [240, 1],
    [720, 1],
  ])('a day of %i minutes counts %d', (minutes, days) => expect(dayCount(minutes)).toBe(days));

  it('adds whole and half days', () =>
    expect(daysWorked([{ minutes: 480 }, { minutes: 180 }, { minutes: 0 }, { minutes: 600 }])).toBe(2.5));

  it.each([
    // year, forfait, employment, workable, forfait, paid leave, rest days
    [2026, 218, {}, 252, 218, 25, 9],
    [2027, 218, {}, 254, 218, 25, 11],
    [2026, 210, {}, 252, 210, 25, 17],
    // Hired on 1 July 2026: 132 weekdays less 14 July, 11 November and Christmas; 218 x 129 / 252 = 111.6.
    [2026, 218, { hireDate: '2026-07-01' }, 129, 111.5, 13, 4.5],
    // Left on 30 June 2026: 129 weekdays less six holidays; 218 x 123 / 252 = 106.4.
    [2026, 218, { endDate: '2026-06-30' }, 123, 106.5, 12, 4.5],
  ])('%i, forfait %i, %j', (year, forfait, employment, workable, days, leave, rest) =>
    expect(forfaitYear(year, forfait, employment, holidays(year))).toEqual({
      year,
      workableDays: workable,
      forfaitDays: days,
      paidLeaveDays: leave,
      restDays: rest,
    }),
  );

  it('gives no rest days below nothing', () => expect(forfaitYear(2026, 235, {}, holidays(2026)).restDays).toBe(0));
});
