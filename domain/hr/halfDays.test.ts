import { HALF_DAY_BOUNDARY, halvesOff, halvesWorked, slotPartWorked, type HalfDaySpan } from './halfDays';

const span = (
  startDate: string,
  endDate = startDate,
  startHalf: HalfDaySpan['startHalf'] = 'morning',
  endHalf: HalfDaySpan['endHalf'] = 'afternoon',
): HalfDaySpan => ({ startDate, startHalf, endDate, endHalf });
const sorted = (halves: Set<string>) => [...halves].sort();

describe('half days of leave', () => {
  it('splits days at 13:00', () => {
    expect(HALF_DAY_BOUNDARY).toBe('13:00');
  });

  it.each([
    ['a day inside the span', span('2025-06-16', '2025-06-18'), '2025-06-17', ['afternoon', 'morning']],
    [
      'the first day of a span starting in the afternoon',
      span('2025-06-16', '2025-06-18', 'afternoon'),
      '2025-06-16',
      ['afternoon'],
    ],
    [
      'the last day of a span ending in the morning',
      span('2025-06-16', '2025-06-18', 'morning', 'morning'),
      '2025-06-18',
      ['morning'],
    ],
    ['a one-day afternoon', span('2025-06-16', '2025-06-16', 'afternoon'), '2025-06-16', ['afternoon']],
    ['a one-day morning', span('2025-06-16', '2025-06-16', 'morning', 'morning'), '2025-06-16', ['morning']],
    ['the day before the span', span('2025-06-16', '2025-06-18'), '2025-06-15', []],
    ['the day after the span', span('2025-06-16', '2025-06-18'), '2025-06-19', []],
  ])('takes the halves of %s', (_name, leave, date, halves) => {
    expect(sorted(halvesOff([leave], date))).toEqual(halves);
  });

  it('adds up the halves of several spans on one day (a morning and an afternoon request)', () => {
    const morning = span('2025-06-20', '2025-06-20', 'morning', 'morning');
    const afternoon = span('2025-06-20', '2025-06-20', 'afternoon');
    expect(sorted(halvesOff([morning, afternoon], '2025-06-20'))).toEqual(['afternoon', 'morning']);
    expect(sorted(halvesOff([], '2025-06-20'))).toEqual([]);
  });

  it.each([
    ['nothing off', [], { start: '09:00', end: '17:00' }],
    ['the morning off', ['morning'], { start: '13:00', end: '17:00' }],
    ['the afternoon off', ['afternoon'], { start: '09:00', end: '13:00' }],
    ['both halves off', ['morning', 'afternoon'], null],
  ] as const)('leaves of a 09:00-17:00 slot with %s', (_name, off, part) => {
    expect(slotPartWorked({ start: '09:00', end: '17:00' }, new Set(off))).toEqual(part);
  });

  it('removes a slot held entirely in the half taken', () => {
    expect(slotPartWorked({ start: '08:00', end: '12:00' }, new Set(['morning']))).toBeNull();
    expect(slotPartWorked({ start: '13:00', end: '18:00' }, new Set(['afternoon']))).toBeNull();
    expect(slotPartWorked({ start: '13:00', end: '18:00' }, new Set(['morning']))).toEqual({
      start: '13:00',
      end: '18:00',
    });
  });

  it.each([
    ['a morning slot', [{ start: '09:00', end: '12:00' }], ['morning']],
    ['a slot starting at the boundary', [{ start: '13:00', end: '17:00' }], ['afternoon']],
    ['a slot ending at the boundary', [{ start: '09:00', end: '13:00' }], ['morning']],
    ['a slot across the boundary', [{ start: '12:00', end: '14:00' }], ['afternoon', 'morning']],
    ['no slot', [], []],
  ])('finds the halves %s works', (_name, slots, halves) => {
    expect(sorted(halvesWorked(slots))).toEqual(halves);
  });
});
