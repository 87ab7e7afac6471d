import type { LeaveCounting } from '../../entities/hr/leave';
import type { Employment } from './employment';
import {
  expiringDays,
  fractionnementDays,
  inMainLeaveWindow,
  monthAcquisition,
  previousReferencePeriod,
  referencePeriodOf,
  spanDaysIn,
  splitBalance,
  type PaidLeaveRule,
} from './paidLeave';

const round2 = (n: number) => Math.round(n * 100) / 100;
const months = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const m = Number(first.slice(5, 7)) - 1 + i;
    return `${Number(first.slice(0, 4)) + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  });

/** Runs the months one after the other, as the accrual job does, each given what its reference period earned so far. */
function earn(
  counting: LeaveCounting,
  periods: string[],
  employment: Employment,
  sick: Record<string, number> = {},
  startMonth?: number,
) {
  const rate = counting === 'ouvrables' ? 2.5 : 2.08;
  const credits: { period: string; rule: PaidLeaveRule; days: number }[] = [];
  for (const period of periods) {
    const first = referencePeriodOf(period, startMonth).firstMonth;
    const before = credits.filter((c) => c.period >= first);
    const { worked, sick: sickPart } = monthAcquisition({
      period,
      counting,
      rate,
      employment,
      sickDays: sick[period] ?? 0,
      earnedBefore: round2(before.reduce((s, c) => s + c.days, 0)),
      sickEarnedBefore: round2(
        before.filter((c) => c.rule === 'sick_leave_acquisition').reduce((s, c) => s + c.days, 0),
      ),
      startMonth,
    });
    for (const part of [worked, sickPart]) if (part) credits.push({ period, rule: part.rule, days: part.days });
  }
  const total = (rule?: PaidLeaveRule) =>
    round2(credits.filter((c) => !rule || c.rule === rule).reduce((s, c) => s + c.days, 0));
  return { credits, total };
}

describe('reference period', () => {
  it.each([
    ['2025-06-01', 6, '2025-06-01', '2026-05-31'],
    ['2026-05-31', 6, '2025-06-01', '2026-05-31'],
    ['2026-01', 6, '2025-06-01', '2026-05-31'],
    ['2028-02-10', 6, '2027-06-01', '2028-05-31'],
    ['2026-03-15', 1, '2026-01-01', '2026-12-31'],
    ['2026-03-15', 4, '2025-04-01', '2026-03-31'],
    ['2026-04-01', 4, '2026-04-01', '2027-03-31'],
  ])('%s with periods from month %i is %s..%s', (day, start, from, to) => {
    expect(referencePeriodOf(day, start)).toMatchObject({ from, to });
  });

  it('the previous period is the year before', () => {
    expect(previousReferencePeriod('2026-01-10')).toMatchObject({ from: '2024-06-01', to: '2025-05-31' });
    expect(previousReferencePeriod('2026-01-10', 1)).toMatchObject({ from: '2025-01-01', to: '2025-12-31' });
  });
});

describe('monthly acquisition: full years, arrivals, departures', () => {
  it.each<{ name: string; counting: LeaveCounting; periods: string[]; employment: Employment; total: number }>([
    {
      name: 'a full year, ouvrables',
      counting: 'ouvrables',
      periods: months('2025-06', 12),
      employment: {},
      total: 30,
    },
    { name: 'a full year, ouvrés', counting: 'ouvres', periods: months('2025-06', 12), employment: {}, total: 25 },
    {
      name: 'arrival on 16 September (15/30 of September, 8 full months): 1.25 + 20 = 21.25 -> 22',
      counting: 'ouvrables',
      periods: months('2025-06', 12),
      employment: { hireDate: '2025-09-16' },
      total: 22,
    },
    {
      name: 'arrival on 1 March, ouvrés: 3 x 2.08 -> 7',
      counting: 'ouvres',
      periods: months('2025-06', 12),
      employment: { hireDate: '2026-03-01' },
      total: 7,
    },
    {
      name: 'departure on 10 January (10/31 of January): 7 x 2.5 + 0.81, not rounded (the period has not ended)',
      counting: 'ouvrables',
      periods: months('2025-06', 12),
      employment: { endDate: '2026-01-10' },
      total: 18.31,
    },
    {
      name: 'arrival and departure in the same month (10 to 19 February 2026, 10/28)',
      counting: 'ouvrables',
      periods: ['2026-02'],
      employment: { hireDate: '2026-02-10', endDate: '2026-02-19' },
      total: 0.89,
    },
    {
      name: 'two full years, ouvrés: 25 each',
      counting: 'ouvres',
      periods: months('2025-06', 24),
      employment: {},
      total: 50,
    },
  ])('$name', ({ counting, periods, employment, total }) => {
    expect(earn(counting, periods, employment).total()).toBe(total);
  });

  it('names the rule of each month', () => {
    const { credits } = earn('ouvrables', months('2025-06', 12), { hireDate: '2025-09-16' });
    expect(credits.map((c) => c.rule)).toEqual([
      'pro_rata',
      ...Array<PaidLeaveRule>(7).fill('monthly_accrual'),
      'year_end_rounding',
    ]);
    expect(credits[0]).toEqual({ period: '2025-09', rule: 'pro_rata', days: 1.25 });
  });

  it('credits nothing for a month outside the employment', () => {
    expect(
      monthAcquisition({
        period: '2026-03',
        counting: 'ouvrables',
        rate: 2.5,
        employment: { endDate: '2026-02-28' },
        sickDays: 0,
        earnedBefore: 0,
        sickEarnedBefore: 0,
      }),
    ).toEqual({ worked: null, sick: null });
  });

  it('a period from January rounds in December', () => {
    const { credits, total } = earn('ouvres', months('2026-01', 12), {}, {}, 1);
    expect(total()).toBe(25);
    expect(credits.at(-1)).toMatchObject({ period: '2026-12', rule: 'year_end_rounding', days: 2.12 });
  });
});

describe('acquisition during non-professional sick leave (2 days a month, 24 a period)', () => {
  it.each<{ name: string; counting: LeaveCounting; sick: Record<string, number>; total: number; sickTotal: number }>([
    {
      name: 'a whole year on sick leave: 12 x 2 = 24 (the cap)',
      counting: 'ouvrables',
      sick: Object.fromEntries(months('2025-06', 12).map((m) => [m, 31])),
      total: 24,
      sickTotal: 24,
    },
    {
      name: 'November on sick leave: 11 x 2.5 + 2 = 29.5 -> 30',
      counting: 'ouvrables',
      sick: { '2025-11': 30 },
      total: 30,
      sickTotal: 2,
    },
    {
      name: 'half of April on sick leave: 0.5 x 2.5 + 0.5 x 2',
      counting: 'ouvrables',
      sick: { '2026-04': 15 },
      total: 30,
      sickTotal: 1,
    },
    {
      name: 'a whole year on sick leave in ouvrés: 12 x 1.67 capped at 20',
      counting: 'ouvres',
      sick: Object.fromEntries(months('2025-06', 12).map((m) => [m, 31])),
      total: 20,
      sickTotal: 20,
    },
  ])('$name', ({ counting, sick, total, sickTotal }) => {
    const run = earn(counting, months('2025-06', 12), {}, sick);
    expect(run.total()).toBe(total);
    expect(run.total('sick_leave_acquisition')).toBe(sickTotal);
  });

  it('the cap holds across a period and starts again with the next', () => {
    const sick = Object.fromEntries(months('2025-06', 14).map((m) => [m, 31]));
    const run = earn('ouvrables', months('2025-06', 14), {}, sick);
    expect(run.total('sick_leave_acquisition')).toBe(28);
  });

  it.each([
    [
      'the whole month',
      [{ startDate: '2026-02-01', startHalf: 'morning', endDate: '2026-02-28', endHalf: 'afternoon' }],
      {},
      28,
    ],
    [
      'from an afternoon to a noon',
      [{ startDate: '2026-02-02', startHalf: 'afternoon', endDate: '2026-02-04', endHalf: 'morning' }],
      {},
      2,
    ],
    [
      'overlapping the month start',
      [{ startDate: '2026-01-20', startHalf: 'morning', endDate: '2026-02-03', endHalf: 'afternoon' }],
      {},
      3,
    ],
    [
      'after the departure',
      [{ startDate: '2026-02-10', startHalf: 'morning', endDate: '2026-02-20', endHalf: 'afternoon' }],
      { endDate: '2026-02-14' },
      5,
    ],
  ] as const)('sick days in February 2026: %s', (_name, spans, employment, days) => {
    expect(spanDaysIn('2026-02', [...spans], employment)).toBe(days);
  });
});

describe('balances N-1 and N', () => {
  const accruals = (first: string, count: number, days = 2.5) =>
    months(first, count).map((m) => ({ days, earnedIn: m }));
  it.each([
    {
      name: 'in January: the last period is N-1, the months since June are N',
      lines: [...accruals('2024-06', 12), ...accruals('2025-06', 7)],
      today: '2026-01-15',
      split: { previous: 30, current: 17.5, total: 47.5 },
    },
    {
      name: 'leave taken spends N-1 first',
      lines: [...accruals('2024-06', 12), ...accruals('2025-06', 7), { days: -12, earnedIn: null }],
      today: '2026-01-15',
      split: { previous: 18, current: 17.5, total: 35.5 },
    },
    {
      name: 'beyond N-1 it takes from N (leave in advance)',
      lines: [...accruals('2024-06', 12), ...accruals('2025-06', 7), { days: -36, earnedIn: null }],
      today: '2026-01-15',
      split: { previous: 0, current: 11.5, total: 11.5 },
    },
    {
      name: 'a reversal gives back to N-1',
      lines: [
        ...accruals('2024-06', 12),
        ...accruals('2025-06', 7),
        { days: -36, earnedIn: null },
        { days: 6, earnedIn: null },
      ],
      today: '2026-01-15',
      split: { previous: 0, current: 17.5, total: 17.5 },
    },
    {
      name: 'on 1 June the N days become N-1',
      lines: [...accruals('2025-06', 12)],
      today: '2026-06-01',
      split: { previous: 30, current: 0, total: 30 },
    },
    {
      name: 'a newcomer has only N',
      lines: [...accruals('2025-11', 3)],
      today: '2026-02-10',
      split: { previous: 0, current: 7.5, total: 7.5 },
    },
  ])('$name', ({ lines, today, split }) => {
    expect(splitBalance(lines, today)).toEqual(split);
  });

  it.each([
    [10, null, 0],
    [10, 0, 10],
    [10, 5, 5],
    [3, 5, 0],
  ])('N-1 of %d with a carry-over of %s: %d expire', (previous, carry, expired) => {
    expect(expiringDays(previous, carry)).toBe(expired);
  });
});

describe('fractionnement (L3141-23)', () => {
  it.each<[LeaveCounting, number, number, number]>([
    ['ouvrables', 24, 0, 0],
    ['ouvrables', 18, 6, 2],
    ['ouvrables', 21, 3, 1],
    ['ouvrables', 22, 2, 0],
    ['ouvrables', 24, 6, 0], // the 5th week outside the window gives nothing
    ['ouvrables', 19, 11, 1], // only 5 days of the main leave are outside
    ['ouvrables', 0, 5, 1],
    ['ouvres', 15, 5, 2],
    ['ouvres', 17, 3, 1],
    ['ouvres', 20, 5, 0],
  ])('%s: %d inside and %d outside 1 May - 31 October give %d', (counting, inside, outside, days) => {
    expect(fractionnementDays(counting, inside, outside)).toBe(days);
  });

  it.each([
    ['2026-05-01', true],
    ['2026-10-31', true],
    ['2026-11-01', false],
    ['2026-04-30', false],
  ])('%s is in the main leave window: %s', (date, inside) => {
    expect(inMainLeaveWindow(date)).toBe(inside);
  });
});
