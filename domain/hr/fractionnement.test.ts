import type { Half, LeaveCounting } from '../../entities/hr/leave';
import { clipSpan, fractionnementOf, takingPeriodEndingIn, type Fractionnement } from './fractionnement';

/**
 * Fractionnement over the taking period 1 May 2025 - 30 April 2026, worked out by hand on that calendar (Monday to
 * Friday 35 h; public holidays Saturday 1 November, Friday 1 May 2026). Ouvrables run to the return.
 */
const span = (startDate: string, endDate = startDate, startHalf: Half = 'morning', endHalf: Half = 'afternoon') => ({
  startDate,
  startHalf,
  endDate,
  endHalf,
});
const FULL_WEEK = [
  {
    effectiveFrom: '2020-01-06',
    slots: [1, 2, 3, 4, 5].flatMap((weekday) => [
      { weekday, start: '09:00', end: '12:30' },
      { weekday, start: '13:30', end: '17:00' },
    ]),
  },
];
const period = takingPeriodEndingIn('2026-04')!;
const SEPTEMBER_3_WEEKS = span('2025-09-01', '2025-09-19'); // 18 ouvrables, 15 ouvrés
const SEPTEMBER_4_WEEKS = span('2025-09-01', '2025-09-26'); // 24 ouvrables
const FEBRUARY_WEEK = span('2026-02-09', '2026-02-13'); // 6 ouvrables, 5 ouvrés
const FEBRUARY_3_DAYS = span('2026-02-09', '2026-02-11'); // 3 ouvrables, 3 ouvrés

const cases: {
  name: string;
  counting?: LeaveCounting;
  requests: ReturnType<typeof span>[];
  waived?: boolean | null;
  waivedByDefault?: boolean;
  endDate?: string;
  expected: Fractionnement;
}[] = [
  {
    name: 'the main leave all in September: nothing',
    requests: [SEPTEMBER_4_WEEKS],
    expected: { inside: 24, outside: 0, days: 0, waived: false },
  },
  {
    name: '3 weeks in September and one in February (6 outside): 2 days',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_WEEK],
    expected: { inside: 18, outside: 6, days: 2, waived: false },
  },
  {
    name: '3 weeks in September and 3 days in February: 1 day',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_3_DAYS],
    expected: { inside: 18, outside: 3, days: 1, waived: false },
  },
  {
    name: 'a half day short of 3 outside: nothing',
    requests: [SEPTEMBER_3_WEEKS, span('2026-02-09', '2026-02-11', 'morning', 'morning')],
    expected: { inside: 18, outside: 2.5, days: 0, waived: false },
  },
  {
    name: 'the fifth week outside the window is not the main leave: nothing',
    requests: [SEPTEMBER_4_WEEKS, FEBRUARY_WEEK],
    expected: { inside: 24, outside: 6, days: 0, waived: false },
  },
  {
    name: 'a request across 31 October is split there (27-31 October inside, the rest to the 10 November return outside)',
    requests: [span('2025-10-27', '2025-11-07')],
    expected: { inside: 5, outside: 6, days: 2, waived: false },
  },
  {
    name: 'leave before the taking period does not count',
    requests: [span('2025-04-07', '2025-04-11'), SEPTEMBER_3_WEEKS],
    expected: { inside: 18, outside: 0, days: 0, waived: false },
  },
  {
    name: 'jours ouvrés: 3 weeks in September and 5 days in February: 2 days',
    counting: 'ouvres',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_WEEK],
    expected: { inside: 15, outside: 5, days: 2, waived: false },
  },
  {
    name: 'jours ouvrés: 3 days outside: 1 day',
    counting: 'ouvres',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_3_DAYS],
    expected: { inside: 15, outside: 3, days: 1, waived: false },
  },
  {
    name: 'the employee waived them: nothing, said so',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_WEEK],
    waived: true,
    expected: { inside: 18, outside: 6, days: 0, waived: true },
  },
  {
    name: 'waived by default in the organisation',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_WEEK],
    waivedByDefault: true,
    expected: { inside: 18, outside: 6, days: 0, waived: true },
  },
  {
    name: 'waived by default, but this employee keeps them',
    requests: [SEPTEMBER_3_WEEKS, FEBRUARY_WEEK],
    waived: false,
    waivedByDefault: true,
    expected: { inside: 18, outside: 6, days: 2, waived: false },
  },
  {
    name: 'an employee who left in January: the days taken before count',
    requests: [SEPTEMBER_3_WEEKS, span('2026-01-05', '2026-01-09')],
    endDate: '2026-01-31',
    expected: { inside: 18, outside: 6, days: 2, waived: false },
  },
];

describe('fractionnementOf (L3141-19, L3141-23)', () => {
  it.each(cases)('$name', ({ counting, requests, waived, waivedByDefault, endDate, expected }) => {
    expect(
      fractionnementOf({
        period,
        counting: counting ?? 'ouvrables',
        requests,
        versions: FULL_WEEK,
        employment: { hireDate: '2020-01-01', endDate: endDate ?? null },
        waived: waived ?? null,
        waivedByDefault: waivedByDefault ?? false,
      }),
    ).toEqual(expected);
  });

  it('closes the taking period with the accrual of April only', () => {
    expect(takingPeriodEndingIn('2026-04')).toEqual({
      from: '2025-05-01',
      to: '2026-04-30',
      label: '2025-05',
      lastMonth: '2026-04',
    });
    expect(takingPeriodEndingIn('2026-05')).toBeNull();
  });

  it.each([
    [
      span('2025-10-30', '2025-11-03', 'afternoon', 'morning'),
      '2025-05-01',
      '2025-10-31',
      span('2025-10-30', '2025-10-31', 'afternoon'),
    ],
    [
      span('2025-10-30', '2025-11-03', 'afternoon', 'morning'),
      '2025-11-01',
      '2026-04-30',
      span('2025-11-01', '2025-11-03', 'morning', 'morning'),
    ],
    [span('2025-04-01', '2025-04-02'), '2025-05-01', '2026-04-30', null],
  ])('clips %o to %s..%s', (s, from, to, clipped) => {
    expect(clipSpan(s, from, to)).toEqual(clipped);
  });
});
