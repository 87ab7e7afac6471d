import {
  contingentAlerts,
  dailyTime,
  DEFAULT_OVERTIME,
  scheduledMinutesOfWeek,
  weekOf,
  weeksOf,
  weekTime,
  type DayTime,
} from './workedTime';

const PARIS = 'Europe/Paris';
/** A span between two Paris wall-clock times (winter, +01:00, unless the offset is given). */
const span = (start: string, end: string, offset = '+01:00') => ({
  start: new Date(`${start}${offset}`),
  end: new Date(`${end}${offset}`),
});
const day = (date: string, minutes: number, nightMinutes = 0, sundayMinutes = 0): DayTime => ({
  date,
  minutes,
  nightMinutes,
  sundayMinutes,
});

describe('daily worked time from the effective intervals', () => {
  it.each([
    {
      name: 'a day shift',
      spans: [span('2026-01-05T09:00', '2026-01-05T12:30'), span('2026-01-05T13:30', '2026-01-05T17:00')],
      days: [day('2026-01-05', 420)],
    },
    {
      name: 'an evening across midnight: both days, night from 21:00 and until 06:00',
      spans: [span('2026-01-05T18:00', '2026-01-06T02:00')],
      days: [day('2026-01-05', 360, 180), day('2026-01-06', 120, 120)],
    },
    {
      name: 'an early morning: night until 06:00',
      spans: [span('2026-01-07T04:30', '2026-01-07T08:00')],
      days: [day('2026-01-07', 210, 90)],
    },
    {
      name: 'a Sunday (11 January 2026) is flagged',
      spans: [span('2026-01-11T10:00', '2026-01-11T14:00')],
      days: [day('2026-01-11', 240, 0, 240)],
    },
    {
      name: 'Saturday night into Sunday: only the Sunday part is Sunday',
      spans: [span('2026-01-10T22:00', '2026-01-11T01:00')],
      days: [day('2026-01-10', 120, 120), day('2026-01-11', 60, 60, 60)],
    },
    {
      name: 'the night the clocks go forward (29 March 2026): 02:00 is skipped, the night ends at 06:00 local',
      spans: [{ start: new Date('2026-03-29T00:00:00Z'), end: new Date('2026-03-29T06:00:00Z') }],
      // 01:00 +01:00 to 08:00 +02:00: 6 real hours, of which 01:00-06:00 local (4 real hours) at night; a Sunday.
      days: [day('2026-03-29', 360, 240, 360)],
    },
  ])('$name', ({ spans, days }) => {
    expect(dailyTime(spans, PARIS)).toEqual(days);
  });
});

describe('weekly counters and overtime', () => {
  const days = (...minutes: number[]) => minutes.map((m, i) => day(`2026-01-0${5 + i}`, m));
  it.each([
    { name: '35 h: no overtime', worked: days(420, 420, 420, 420, 420), first: 0, second: 0 },
    { name: '39 h: 4 h at +25 %', worked: days(468, 468, 468, 468, 468), first: 240, second: 0 },
    { name: '43 h: 8 h at +25 %', worked: days(516, 516, 516, 516, 516), first: 480, second: 0 },
    { name: '46 h: 8 h at +25 %, 3 h at +50 %', worked: days(552, 552, 552, 552, 552), first: 480, second: 180 },
    { name: '30 h: none', worked: days(360, 360, 360, 360, 360), first: 0, second: 0 },
  ])('$name', ({ worked, first, second }) => {
    expect(weekTime('2026-01-05', worked, 2100)).toMatchObject({
      overtimeFirstMinutes: first,
      overtimeSecondMinutes: second,
      replacementRestMinutes: 0,
    });
  });

  it('rates by agreement: +10 % for the first 4 h, +25 % beyond', () => {
    const rates = { ...DEFAULT_OVERTIME, firstTierMinutes: 240, firstRate: 10, secondRate: 25 };
    expect(weekTime('2026-01-05', days(552, 552, 552, 552, 552), 2100, rates)).toMatchObject({
      overtimeFirstMinutes: 240,
      overtimeSecondMinutes: 420,
    });
  });

  it('repos compensateur de remplacement: the overtime earns its rest, increase included', () => {
    // 8 h x 1.25 + 3 h x 1.5 = 10 h + 4 h 30.
    expect(weekTime('2026-01-05', days(552, 552, 552, 552, 552), 2100, DEFAULT_OVERTIME, true)).toMatchObject({
      replacementRestMinutes: 870,
    });
  });

  it('compares with the schedule and groups days by ISO week', () => {
    const weeks = weeksOf([day('2026-01-04', 60), day('2026-01-05', 600), day('2026-01-11', 120)], (w) =>
      w === '2026-01-05' ? 2100 : 0,
    );
    expect(weeks.map((w) => [w.week, w.minutes, w.scheduledMinutes, w.deltaMinutes])).toEqual([
      ['2025-12-29', 60, 0, 60],
      ['2026-01-05', 720, 2100, -1380],
    ]);
    expect(weekOf('2026-01-11')).toBe('2026-01-05');
    expect(weekOf('2026-01-12')).toBe('2026-01-12');
  });
});

describe('annual contingent (220 h)', () => {
  const H = 60;
  it.each([
    [0, 10 * H, []],
    [170 * H, 6 * H, [0.8]],
    [175 * H, 30 * H, [0.8, 0.9]],
    [197 * H, 23 * H, [0.9, 1]],
    [220 * H, 5 * H, []],
    [176 * H, 1 * H, []],
  ])('%d min used, %d more: alerts at %j', (before, week, shares) => {
    expect(contingentAlerts(before, week).map((a) => a.share)).toEqual(shares);
  });

  it('a contingent by agreement', () => {
    expect(contingentAlerts(0, 100 * H, 100 * H).map((a) => a.share)).toEqual([0.8, 0.9, 1]);
  });
});

describe('scheduled minutes of a week', () => {
  const week35 = [1, 2, 3, 4, 5].map((weekday) => ({ weekday, start: '09:00', end: '16:00' }));
  const week20 = [1, 2].map((weekday) => ({ weekday, start: '08:00', end: '18:00' }));
  it.each([
    { name: 'a full week', employment: {}, holidays: [], minutes: 2100 },
    { name: 'a public holiday on Monday', employment: {}, holidays: ['2026-01-05'], minutes: 1680 },
    { name: 'hired on Wednesday', employment: { hireDate: '2026-01-07' }, holidays: [], minutes: 1260 },
    { name: 'left on Tuesday', employment: { endDate: '2026-01-06' }, holidays: [], minutes: 840 },
  ])('$name', ({ employment, holidays, minutes }) => {
    expect(
      scheduledMinutesOfWeek(
        '2026-01-05',
        employment,
        [{ effectiveFrom: '2025-01-01', slots: week35 }],
        new Set(holidays),
      ),
    ).toBe(minutes);
  });

  it('a new version from Wednesday', () => {
    const versions = [
      { effectiveFrom: '2025-01-01', slots: week35 },
      { effectiveFrom: '2026-01-07', slots: week20 },
    ];
    // Monday and Tuesday of the first version (7 h each), nothing on Monday and Tuesday in the second.
    expect(scheduledMinutesOfWeek('2026-01-05', {}, versions, new Set())).toBe(840);
  });
});
