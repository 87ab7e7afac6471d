import type { Half, LeaveCounting } from '../../entities/hr/leave';
import type { ScheduleSlot } from '../../entities/hr/schedule';
import { leaveDays } from './leaveDays';
import type { Employment } from './employment';
import { addDays } from '../../lib/calendar';

/**
 * Days a leave span takes in each counting, worked out by hand on the 2025 calendar (Monday 16 June; public
 * holidays: Ascension Thursday 29 May, Whit Monday 9 June, Monday 14 July, Friday 15 August). Jours ouvrables
 * run from the first worked half taken to the return; jours ouvrés are the halves worked.
 */
const span = (startDate: string, endDate = startDate, startHalf: Half = 'morning', endHalf: Half = 'afternoon') => ({
  startDate,
  startHalf,
  endDate,
  endHalf,
});
const week = (days: number[], slots: (weekday: number) => Omit<ScheduleSlot, 'weekday'>[]) => [
  { effectiveFrom: '2020-01-06', slots: days.flatMap((weekday) => slots(weekday).map((s) => ({ weekday, ...s }))) },
];
const FULL = (weekday: number) => [
  { start: '09:00', end: '12:30' },
  { start: '13:30', end: weekday === 5 ? '16:30' : '17:00' },
];
/** Monday to Friday, but Wednesday mornings only. */
const PART_TIME = week([1, 2, 3, 4, 5], (d) => (d === 3 ? [{ start: '09:00', end: '12:00' }] : FULL(d)));

const cases: {
  name: string;
  span: ReturnType<typeof span>;
  ouvrables: number;
  ouvres: number;
  schedule?: ReturnType<typeof week>;
  employment?: Employment;
}[] = [
  {
    name: 'a week Monday to Friday: its Saturday before the Monday return',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 6,
    ouvres: 5,
  },
  { name: 'the same week asked to the Saturday', span: span('2025-06-16', '2025-06-21'), ouvrables: 6, ouvres: 5 },
  {
    name: 'the same week with a schedule',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 6,
    ouvres: 5,
    schedule: week([1, 2, 3, 4, 5], FULL),
  },
  {
    name: 'a week from the Saturday before to the Sunday after: the days off around it cost nothing',
    span: span('2025-06-14', '2025-06-22'),
    ouvrables: 6,
    ouvres: 5,
  },
  { name: 'two weeks', span: span('2025-06-16', '2025-06-27'), ouvrables: 12, ouvres: 10 },
  { name: 'Monday to Wednesday: back on Thursday', span: span('2025-06-16', '2025-06-18'), ouvrables: 3, ouvres: 3 },
  { name: 'a Friday: and its Saturday', span: span('2025-06-20'), ouvrables: 2, ouvres: 1 },
  {
    name: 'a Friday morning: back in the afternoon',
    span: span('2025-06-20', '2025-06-20', 'morning', 'morning'),
    ouvrables: 0.5,
    ouvres: 0.5,
  },
  {
    name: 'a Friday afternoon: and its Saturday',
    span: span('2025-06-20', '2025-06-20', 'afternoon'),
    ouvrables: 1.5,
    ouvres: 0.5,
  },
  {
    name: 'Thursday afternoon to Friday',
    span: span('2025-06-19', '2025-06-20', 'afternoon'),
    ouvrables: 2.5,
    ouvres: 1.5,
  },
  {
    name: 'Monday afternoon to Tuesday morning',
    span: span('2025-06-16', '2025-06-17', 'afternoon', 'morning'),
    ouvrables: 1,
    ouvres: 1,
  },
  { name: 'Saturday to Monday: from the Monday', span: span('2025-06-21', '2025-06-23'), ouvrables: 1, ouvres: 1 },
  { name: 'a Saturday alone: no day off', span: span('2025-06-21'), ouvrables: 0, ouvres: 0 },
  {
    name: 'a week holding a public holiday (Monday 14 July)',
    span: span('2025-07-14', '2025-07-18'),
    ouvrables: 5,
    ouvres: 4,
  },
  {
    name: 'the week before it: back on Tuesday 15, the holiday not counted',
    span: span('2025-07-07', '2025-07-11'),
    ouvrables: 6,
    ouvres: 5,
  },
  { name: 'the week of Ascension Thursday', span: span('2025-05-26', '2025-05-30'), ouvrables: 5, ouvres: 4 },
  { name: 'a Friday before Whit Monday: back on Tuesday', span: span('2025-06-06'), ouvrables: 2, ouvres: 1 },
  { name: 'Thursday 14 August before the Friday holiday', span: span('2025-08-14'), ouvrables: 2, ouvres: 1 },
  { name: 'a public holiday alone', span: span('2025-07-14'), ouvrables: 0, ouvres: 0 },
  {
    name: 'part time, a week: as full time in ouvrables',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 6,
    ouvres: 4.5,
    schedule: PART_TIME,
  },
  {
    name: 'part time, a whole Wednesday (worked mornings only)',
    span: span('2025-06-18'),
    ouvrables: 1,
    ouvres: 0.5,
    schedule: PART_TIME,
  },
  {
    name: 'part time, a Wednesday afternoon alone: not worked',
    span: span('2025-06-18', '2025-06-18', 'afternoon'),
    ouvrables: 0,
    ouvres: 0,
    schedule: PART_TIME,
  },
  {
    name: 'working Mondays only, a Monday: back the next Monday',
    span: span('2025-06-16'),
    ouvrables: 6,
    ouvres: 1,
    schedule: week([1], FULL),
  },
  {
    name: 'a week ending after the last day of work',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 3,
    ouvres: 3,
    employment: { endDate: '2025-06-18' },
  },
  {
    name: 'a week starting before the hire date',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 4,
    ouvres: 3,
    employment: { hireDate: '2025-06-18' },
  },
  {
    name: 'no return within a week (no slot from the next Monday): the span only',
    span: span('2025-06-16', '2025-06-20'),
    ouvrables: 5,
    ouvres: 5,
    schedule: [...week([1, 2, 3, 4, 5], FULL), { effectiveFrom: '2025-06-23', slots: [] }],
  },
];

describe('leave days by counting (jours ouvrables, jours ouvrés)', () => {
  it.each(
    cases.flatMap((c) =>
      (['ouvrables', 'ouvres'] as LeaveCounting[]).map((counting) => ({ ...c, counting, expected: c[counting] })),
    ),
  )('$name, in $counting: $expected', ({ span: s, counting, schedule, employment, expected }) => {
    expect(leaveDays(s, counting, schedule ?? [], employment)).toBe(expected);
  });

  it.each([
    ['a slot across 13:00 works both halves', 'morning', 'afternoon', { start: '09:00', end: '17:00' }, 1],
    ['a slot from 13:00 works the afternoon only', 'morning', 'morning', { start: '13:00', end: '17:00' }, 0],
    ['a slot to 13:00 works the morning only', 'afternoon', 'afternoon', { start: '09:00', end: '13:00' }, 0],
  ] as const)('half days at the boundary availability uses: %s', (_, startHalf, endHalf, slot, days) => {
    expect(
      leaveDays(span('2026-06-08', '2026-06-08', startHalf, endHalf), 'ouvres', [
        { effectiveFrom: '2024-01-01', slots: [{ weekday: 1, ...slot }] },
      ]),
    ).toBe(days);
  });

  it('spends five weeks Monday to Friday as 30 jours ouvrables or 25 jours ouvrés', () => {
    const weeks = ['2025-06-16', '2025-06-23', '2025-06-30', '2025-07-07', '2025-07-21'].map((monday) =>
      span(monday, addDays(monday, 4)),
    );
    expect(weeks.reduce((sum, w) => sum + leaveDays(w, 'ouvrables', []), 0)).toBe(30);
    expect(weeks.reduce((sum, w) => sum + leaveDays(w, 'ouvres', []), 0)).toBe(25);
  });
});
