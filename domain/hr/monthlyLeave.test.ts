import type { ScheduleSlot } from '../../entities/hr/schedule';
import type { HalfDaySpan } from './halfDays';
import {
  accrualMovements,
  type AccrualInput,
  excessMinutes,
  LEGAL_WEEKLY_MINUTES,
  RTT_DAY_MINUTES,
  rttDaysOf,
  rttReason,
  rttWeeksOf,
} from './monthlyLeave';

/** 39 h a week: Monday to Thursday 9-13 and 14-18, Friday 9-13 and 14-17 (4 h a week above 35 h). */
const WEEK_39H: ScheduleSlot[] = [1, 2, 3, 4, 5].flatMap((weekday) => [
  { weekday, start: '09:00', end: '13:00' },
  { weekday, start: '14:00', end: weekday === 5 ? '17:00' : '18:00' },
]);
const WEEK_35H: ScheduleSlot[] = [1, 2, 3, 4, 5].flatMap((weekday) => [
  { weekday, start: '09:00', end: '12:30' },
  { weekday, start: '13:30', end: '17:00' },
]);
const since = (effectiveFrom: string, slots: ScheduleSlot[]) => ({ effectiveFrom, slots });
const day = (
  date: string,
  startHalf: HalfDaySpan['startHalf'] = 'morning',
  endHalf: HalfDaySpan['endHalf'] = 'afternoon',
): HalfDaySpan => ({ startDate: date, startHalf, endDate: date, endHalf });

describe('RTT of a month', () => {
  it("counts the ISO weeks starting in the month, to the last one's Sunday", () => {
    // March 2025 starts on a Saturday: its weeks start on the 3rd, 10th, 17th, 24th and 31st.
    const weeks = rttWeeksOf('2025-03');
    expect(weeks).toMatchObject({
      mondays: ['2025-03-03', '2025-03-10', '2025-03-17', '2025-03-24', '2025-03-31'],
      first: '2025-03-03',
      last: '2025-04-06',
    });
    expect(rttWeeksOf('2025-09').mondays).toEqual([
      '2025-09-01',
      '2025-09-08',
      '2025-09-15',
      '2025-09-22',
      '2025-09-29',
    ]);
    expect(rttWeeksOf('2025-12').last).toBe('2026-01-04');
    expect(rttWeeksOf('2025-12').holidays.has('2026-01-01')).toBe(true);
  });

  it('earns the minutes scheduled above 35 h each week', () => {
    expect(LEGAL_WEEKLY_MINUTES).toBe(35 * 60);
    expect(excessMinutes(rttWeeksOf('2025-03'), {}, [since('2020-01-06', WEEK_39H)], [])).toBe(5 * 4 * 60);
    expect(excessMinutes(rttWeeksOf('2025-03'), {}, [since('2020-01-06', WEEK_35H)], [])).toBe(0);
  });

  it('follows the schedule version in force each day', () => {
    const versions = [since('2020-01-06', WEEK_39H), since('2025-03-17', WEEK_35H)];
    expect(excessMinutes(rttWeeksOf('2025-03'), {}, versions, [])).toBe(2 * 4 * 60);
  });

  it('earns nothing outside the employment', () => {
    const weeks = rttWeeksOf('2025-03');
    expect(excessMinutes(weeks, { hireDate: '2025-03-10' }, [since('2020-01-06', WEEK_39H)], [])).toBe(4 * 4 * 60);
    // Gone after Wednesday 26 March: the week of the 24th has 24 h, the week of the 31st none.
    expect(excessMinutes(weeks, { endDate: '2025-03-26' }, [since('2020-01-06', WEEK_39H)], [])).toBe(3 * 4 * 60);
  });

  it('earns nothing on public holidays (May 2025: Victory Day and Ascension fall on Thursdays)', () => {
    // Weeks of the 5th (8 May) and of the 26th (29 May) lose 8 h: 31 h, no excess.
    expect(excessMinutes(rttWeeksOf('2025-05'), {}, [since('2020-01-06', WEEK_39H)], [])).toBe(2 * 4 * 60);
  });

  it('earns nothing in the halves of days taken by leave', () => {
    const weeks = rttWeeksOf('2025-03');
    const schedule = [since('2020-01-06', WEEK_39H)];
    // A Monday off (8 h): its week is at 31 h.
    expect(excessMinutes(weeks, {}, schedule, [day('2025-03-17')])).toBe(4 * 4 * 60);
    // A Friday afternoon off (14-17): its week is at 36 h.
    expect(excessMinutes(weeks, {}, schedule, [day('2025-03-21', 'afternoon')])).toBe(4 * 4 * 60 + 60);
  });

  it('turns the excess into days of 7 h, to the hundredth, and says so', () => {
    expect(RTT_DAY_MINUTES).toBe(7 * 60);
    expect(rttDaysOf(20 * 60)).toBe(2.86);
    expect(rttDaysOf(7 * 60)).toBe(1);
    expect(rttDaysOf(0)).toBe(0);
    expect(rttDaysOf(2)).toBe(0);
    expect(rttReason('2025-03', 20 * 60)).toBe('RTT 2025-03: 20 h above 35 h weeks');
    expect(rttReason('2025-03', 65)).toBe('RTT 2025-03: 1.1 h above 35 h weeks');
  });
});

describe('accrual of a month', () => {
  const types = [
    { id: 'paid', accrualDaysPerMonth: '2.50', counting: 'ouvrables' as const },
    { id: 'extra', accrualDaysPerMonth: 1, counting: 'ouvres' as const },
  ];
  const input = (over: Partial<AccrualInput>): AccrualInput => ({
    period: '2025-07',
    employees: [],
    types,
    sickLeave: [],
    earned: new Map(),
    ...over,
  });

  it('credits each employee every accruing type at its rate, naming the rule', () => {
    expect(accrualMovements(input({ employees: [{ id: 'e1' }, { id: 'e2', hireDate: '2025-07-16' }] }))).toEqual({
      accrual: [
        { employeeId: 'e1', leaveTypeId: 'paid', days: 2.5, rule: 'monthly_accrual', reason: 'Accrual 2025-07' },
        { employeeId: 'e1', leaveTypeId: 'extra', days: 1, rule: 'monthly_accrual', reason: 'Accrual 2025-07' },
        {
          employeeId: 'e2',
          leaveTypeId: 'paid',
          days: 1.29,
          rule: 'pro_rata',
          reason: 'Accrual 2025-07, pro rata 16/31 days',
        },
        {
          employeeId: 'e2',
          leaveTypeId: 'extra',
          days: 0.52,
          rule: 'pro_rata',
          reason: 'Accrual 2025-07, pro rata 16/31 days',
        },
      ],
      sick: [],
    });
    expect(accrualMovements(input({}))).toEqual({ accrual: [], sick: [] });
  });

  it('paid leave earns 2 a month on sick leave; other types ignore it', () => {
    const sickLeave = [
      {
        employeeId: 'e1',
        startDate: '2025-07-01',
        startHalf: 'morning' as const,
        endDate: '2025-07-31',
        endHalf: 'afternoon' as const,
      },
    ];
    const { accrual, sick } = accrualMovements(input({ employees: [{ id: 'e1' }], sickLeave }));
    expect(accrual).toEqual([
      { employeeId: 'e1', leaveTypeId: 'extra', days: 1, rule: 'monthly_accrual', reason: 'Accrual 2025-07' },
    ]);
    expect(sick).toEqual([
      {
        employeeId: 'e1',
        leaveTypeId: 'paid',
        days: 2,
        rule: 'sick_leave_acquisition',
        reason: 'Sick leave 2025-07: 31 day(s), 2 a month up to 24 a reference period',
      },
    ]);
  });

  it('rounds the reference period up to a whole day in May, from what each employee earned of each type', () => {
    // Eleven months of 2.08 ouvrés: 22.88; May makes 25.
    const earned = new Map([['e1:ouvres', { total: 22.88, sick: 0 }]]);
    const { accrual } = accrualMovements(
      input({
        period: '2026-05',
        employees: [{ id: 'e1' }, { id: 'e2' }],
        types: [{ id: 'ouvres', accrualDaysPerMonth: 2.08, counting: 'ouvres' }],
        earned,
      }),
    );
    const reason = 'Accrual 2026-05, the reference period to 2026-05-31 rounded up to a whole day';
    expect(accrual).toEqual([
      { employeeId: 'e1', leaveTypeId: 'ouvres', days: 2.12, rule: 'year_end_rounding', reason },
      // Hired in May: 2.08 rounds up to 3.
      { employeeId: 'e2', leaveTypeId: 'ouvres', days: 3, rule: 'year_end_rounding', reason },
    ]);
  });
});
