import type { DayTime } from './workedTime';
import {
  absenceMinutes,
  clipSpan,
  monthTime,
  payrollMonth,
  weekShare,
  type PayrollMonthInput,
  type PayrollWeek,
} from './payrollMonth';

const day = (date: string, minutes: number, nightMinutes = 0, sundayMinutes = 0): DayTime => ({
  date,
  minutes,
  nightMinutes,
  sundayMinutes,
});
/** Five days of `minutes` from a Monday. */
const fiveDays = (monday: string, minutes: number): DayTime[] =>
  [0, 1, 2, 3, 4].map((i) =>
    day(new Date(Date.parse(`${monday}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10), minutes),
  );
const counter = (minutes: number, first = 0, second = 0, night = 0, sunday = 0) => ({
  minutes,
  nightMinutes: night,
  sundayMinutes: sunday,
  overtimeFirstMinutes: first,
  overtimeSecondMinutes: second,
});
/** Monday to Friday 09:00-12:30 and 13:30-17:00 (35 h). */
const STANDARD = [
  {
    effectiveFrom: '2020-01-06',
    slots: [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '12:30' },
      { weekday, start: '13:30', end: '17:00' },
    ]),
  },
];

describe('a week split by day between two months', () => {
  // The week of Monday 28 September 2026: Monday to Wednesday in September, Thursday to Sunday in October.
  it.each([
    {
      name: '5 x 8 h: the 5 h overtime fall on Friday (October)',
      days: fiveDays('2026-09-28', 480),
      september: { workedMinutes: 1440, overtimeFirstMinutes: 0, overtimeSecondMinutes: 0 },
      october: { workedMinutes: 960, overtimeFirstMinutes: 300, overtimeSecondMinutes: 0 },
    },
    {
      name: '3 x 12 h then 2 x 10 h: 1 h overtime on Wednesday (September), the rest in October, 50 % from the 44th hour',
      days: [...fiveDays('2026-09-28', 720).slice(0, 3), day('2026-10-01', 600), day('2026-10-02', 600)],
      september: { workedMinutes: 2160, overtimeFirstMinutes: 60, overtimeSecondMinutes: 0 },
      october: { workedMinutes: 1200, overtimeFirstMinutes: 420, overtimeSecondMinutes: 780 },
    },
    {
      name: 'under 35 h: no overtime either side, night and Sunday minutes by their day',
      days: [day('2026-09-28', 300, 60), day('2026-10-04', 240, 0, 240)],
      september: { workedMinutes: 300, nightMinutes: 60, sundayMinutes: 0, overtimeFirstMinutes: 0 },
      october: { workedMinutes: 240, nightMinutes: 0, sundayMinutes: 240, overtimeFirstMinutes: 0 },
    },
  ])('$name', ({ days, september, october }) => {
    const sep = weekShare(days, '2026-09-01', '2026-09-30');
    const oct = weekShare(days, '2026-10-01', '2026-10-31');
    expect(sep).toMatchObject(september);
    expect(oct).toMatchObject(october);
    // The two shares add up to the week.
    const total = days.reduce((s, d) => s + d.minutes, 0);
    expect(sep.workedMinutes + oct.workedMinutes).toBe(total);
    const overtime = Math.max(0, total - 2100);
    expect(sep.overtimeFirstMinutes + oct.overtimeFirstMinutes).toBe(Math.min(overtime, 480));
    expect(sep.overtimeSecondMinutes + oct.overtimeSecondMinutes).toBe(Math.max(0, overtime - 480));
  });
});

describe('the time of a month from its weeks', () => {
  const weeks: PayrollWeek[] = [
    // Straddles August and September (Monday 31 August): split by day, the counter is not used.
    { monday: '2026-08-31', counter: counter(9999, 999), days: fiveDays('2026-08-31', 480) },
    // Inside September: the closed counter as it is, whatever the days say now (a later correction).
    { monday: '2026-09-07', counter: counter(2400, 300, 0, 30, 0), days: fiveDays('2026-09-07', 420) },
    // Inside, no counter (not closed for this employee): from its days.
    { monday: '2026-09-14', counter: null, days: fiveDays('2026-09-14', 450) },
    // Another month: ignored.
    { monday: '2026-10-05', counter: counter(2100), days: fiveDays('2026-10-05', 420) },
  ];
  it.each([
    {
      name: 'September',
      month: '2026-09',
      expected: {
        // Tuesday to Friday of the first week (4 x 480, overtime 5 h from Friday's: 300 on 4 September).
        workedMinutes: 1920 + 2400 + 2250,
        nightMinutes: 30,
        sundayMinutes: 0,
        overtimeFirstMinutes: 300 + 300 + 150,
        overtimeSecondMinutes: 0,
      },
    },
    {
      name: 'August: only the Monday of the straddling week',
      month: '2026-08',
      expected: { workedMinutes: 480, overtimeFirstMinutes: 0, nightMinutes: 0 },
    },
  ])('$name', ({ month, expected }) => {
    expect(monthTime(month, weeks)).toMatchObject(expected);
  });
});

describe('absences cut to the month', () => {
  it.each([
    {
      name: 'a span across the month end is cut to whole days',
      span: { startDate: '2026-09-28', startHalf: 'afternoon', endDate: '2026-10-02', endHalf: 'morning' },
      clipped: { startDate: '2026-09-28', startHalf: 'afternoon', endDate: '2026-09-30', endHalf: 'afternoon' },
    },
    {
      name: 'a span from the month before starts on the first',
      span: { startDate: '2026-08-25', startHalf: 'afternoon', endDate: '2026-09-02', endHalf: 'morning' },
      clipped: { startDate: '2026-09-01', startHalf: 'morning', endDate: '2026-09-02', endHalf: 'morning' },
    },
    {
      name: 'outside the month: nothing',
      span: { startDate: '2026-10-01', startHalf: 'morning', endDate: '2026-10-02', endHalf: 'afternoon' },
      clipped: null,
    },
  ] as const)('$name', ({ span, clipped }) => {
    expect(clipSpan(span, '2026-09-01', '2026-09-30')).toEqual(clipped);
  });

  it.each([
    { name: 'a full day: its 7 h', span: ['2026-09-28', 'morning', '2026-09-28', 'afternoon'], minutes: 420 },
    { name: 'a morning: 09:00-12:30', span: ['2026-09-28', 'morning', '2026-09-28', 'morning'], minutes: 210 },
    { name: 'a week end: nothing', span: ['2026-09-26', 'morning', '2026-09-27', 'afternoon'], minutes: 0 },
    {
      name: 'a public holiday (11 November): nothing',
      span: ['2026-11-11', 'morning', '2026-11-11', 'afternoon'],
      minutes: 0,
    },
  ] as const)('$name', ({ span, minutes }) => {
    const [startDate, startHalf, endDate, endHalf] = span;
    expect(absenceMinutes({ startDate, startHalf, endDate, endHalf }, STANDARD, {})).toBe(minutes);
  });

  it('without a schedule: 7 h a weekday, 3.5 a half', () => {
    expect(
      absenceMinutes(
        { startDate: '2026-09-28', startHalf: 'afternoon', endDate: '2026-09-29', endHalf: 'afternoon' },
        [],
        {},
      ),
    ).toBe(630);
  });
});

describe('the month summary of an employee', () => {
  const paid = { id: 'paid', code: 'paid', counting: 'ouvrables' as const, tracksBalance: true };
  const rtt = { id: 'rtt', code: 'rtt', counting: 'ouvres' as const, tracksBalance: true };
  const sick = { id: 'sick', code: 'sick', counting: 'ouvres' as const, tracksBalance: false };
  const base: PayrollMonthInput = {
    month: '2026-09',
    employment: {},
    weeks: [],
    leave: [],
    types: [paid, rtt, sick],
    versions: STANDARD,
    movements: [],
    monthEnd: new Date('2026-09-30T22:00:00Z'),
  };
  const at = (iso: string) => new Date(iso);

  it.each([
    {
      name: 'no activity: zero time, the balance of each type keeping one',
      input: {},
      expected: {
        workedMinutes: 0,
        absences: [],
        balances: [
          { leaveTypeId: 'paid', code: 'paid', days: 0 },
          { leaveTypeId: 'rtt', code: 'rtt', days: 0 },
        ],
      },
    },
    {
      name: 'paid leave across the month end: the September part in ouvrables (Saturday before the return) and hours',
      input: {
        // Thursday 24 September to Tuesday 6 October.
        leave: [
          {
            leaveTypeId: 'paid',
            startDate: '2026-09-24',
            startHalf: 'morning',
            endDate: '2026-10-06',
            endHalf: 'afternoon',
          } as const,
        ],
      },
      expected: {
        // 24, 25, 26 (Saturday), 28, 29, 30 September: 6 jours ouvrables; 5 worked days of 7 h.
        absences: [{ leaveTypeId: 'paid', code: 'paid', days: 6, minutes: 5 * 420 }],
      },
    },
    {
      name: 'two requests of one type add up; a sick afternoon in ouvres',
      input: {
        leave: [
          {
            leaveTypeId: 'rtt',
            startDate: '2026-09-07',
            startHalf: 'morning',
            endDate: '2026-09-07',
            endHalf: 'afternoon',
          } as const,
          {
            leaveTypeId: 'rtt',
            startDate: '2026-09-14',
            startHalf: 'morning',
            endDate: '2026-09-14',
            endHalf: 'morning',
          } as const,
          {
            leaveTypeId: 'sick',
            startDate: '2026-09-15',
            startHalf: 'afternoon',
            endDate: '2026-09-15',
            endHalf: 'afternoon',
          } as const,
        ],
      },
      expected: {
        absences: [
          { leaveTypeId: 'rtt', code: 'rtt', days: 1.5, minutes: 630 },
          { leaveTypeId: 'sick', code: 'sick', days: 0.5, minutes: 210 },
        ],
      },
    },
    {
      name: 'balances at the month end: periods up to the month, other movements made before its end',
      input: {
        movements: [
          // September's accrual, made by the job in October: counts.
          { leaveTypeId: 'paid', days: 2.5, period: '2026-09', createdAt: at('2026-10-01T02:00:00Z') },
          // October's: does not.
          { leaveTypeId: 'paid', days: 2.5, period: '2026-10', createdAt: at('2026-11-01T02:00:00Z') },
          // A request filed in September (its days held): counts.
          { leaveTypeId: 'paid', days: -1, period: null, createdAt: at('2026-09-30T21:59:00Z') },
          // One filed after midnight in Paris: does not.
          { leaveTypeId: 'paid', days: -2, period: null, createdAt: at('2026-09-30T22:00:00Z') },
          // A type not keeping a balance any more still shows its ledger.
          { leaveTypeId: 'sick', days: 1.333, period: null, createdAt: at('2026-01-01T00:00:00Z') },
        ],
      },
      expected: {
        balances: [
          { leaveTypeId: 'paid', code: 'paid', days: 1.5 },
          { leaveTypeId: 'rtt', code: 'rtt', days: 0 },
          { leaveTypeId: 'sick', code: 'sick', days: 1.33 },
        ],
      },
    },
    {
      name: 'leave outside the employment counts nothing',
      input: {
        employment: { endDate: '2026-09-08' },
        leave: [
          {
            leaveTypeId: 'rtt',
            startDate: '2026-09-07',
            startHalf: 'morning',
            endDate: '2026-09-10',
            endHalf: 'afternoon',
          } as const,
        ],
      },
      expected: { absences: [{ leaveTypeId: 'rtt', code: 'rtt', days: 2, minutes: 840 }] },
    },
  ])('$name', ({ input, expected }) => {
    expect(payrollMonth({ ...base, ...input })).toMatchObject(expected);
  });
});
