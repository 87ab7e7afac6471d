import { AppError } from '../../../lib/errors';
import {
  availabilityEnd,
  checkRange,
  DEFAULT_AVAILABILITY_DAYS,
  earliestStart,
  freeSlots,
  MAX_AVAILABILITY_DAYS,
  weeklyIntervals,
} from './slots';

/** The error a rule throws: status, code and the fields it names. */
const refusal = (run: () => void) => {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError)
      return { status: err.status, code: err.code, fields: err.errors?.map((e) => e.field) ?? [] };
    throw err;
  }
  return null;
};

/** Pure slot computation on known schedules (no database). */
describe('booking: slot computation', () => {
  const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
  const rules = (over: Partial<Parameters<typeof freeSlots>[2]> = {}) => ({
    durationMinutes: 30,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    notBefore: new Date(0),
    ...over,
  });

  it('keeps 09:00 local across the DST change week in Europe/Paris (UTC+1 then UTC+2)', () => {
    // Monday 23 to Sunday 29 March 2026; clocks go forward on Sunday 29 at 02:00.
    const hours = { '1': ['09:00-10:00'], '6': ['09:00-10:00'], '7': ['01:00-04:00', '09:00-10:00'] };
    const intervals = weeklyIntervals(hours, 'Europe/Paris', {
      from: new Date('2026-03-23T00:00:00Z'),
      to: new Date('2026-03-30T00:00:00Z'),
    });
    expect(intervals.map((i) => [i.start.toISOString(), i.end.toISOString()])).toEqual([
      ['2026-03-23T08:00:00.000Z', '2026-03-23T09:00:00.000Z'],
      ['2026-03-28T08:00:00.000Z', '2026-03-28T09:00:00.000Z'],
      // 01:00-04:00 on the change night lasts two real hours (02:00-03:00 does not exist).
      ['2026-03-29T00:00:00.000Z', '2026-03-29T02:00:00.000Z'],
      ['2026-03-29T07:00:00.000Z', '2026-03-29T08:00:00.000Z'],
    ]);
    const slots = freeSlots(intervals.slice(3), [], rules());
    expect(iso(slots)).toEqual(['2026-03-29T07:00:00.000Z', '2026-03-29T07:15:00.000Z', '2026-03-29T07:30:00.000Z']);
  });

  it('and back in October (UTC+2 then UTC+1)', () => {
    const intervals = weeklyIntervals({ '6': ['09:00-09:30'], '7': ['09:00-09:30'] }, 'Europe/Paris', {
      from: new Date('2026-10-24T00:00:00Z'),
      to: new Date('2026-10-26T00:00:00Z'),
    });
    expect(intervals.map((i) => i.start.toISOString())).toEqual([
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
    ]);
  });

  it('removes slots whose blocked range (buffers included) touches a busy interval, on the 15-minute grid', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T10:00:00Z') }];
    const busy = [{ start: new Date('2030-01-07T09:00:00Z'), end: new Date('2030-01-07T09:30:00Z') }];
    expect(iso(freeSlots(working, busy, rules()))).toEqual([
      '2030-01-07T08:00:00.000Z',
      '2030-01-07T08:15:00.000Z',
      '2030-01-07T08:30:00.000Z',
      '2030-01-07T09:30:00.000Z',
    ]);
    // 15 minutes of buffer after: a slot must end 15 min before the busy time; before: start 15 min after it.
    expect(iso(freeSlots(working, busy, rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 })))).toEqual([
      '2030-01-07T08:00:00.000Z',
      '2030-01-07T08:15:00.000Z',
    ]);
  });

  it('applies the minimum notice on the grid and fits the duration inside the working time', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T09:00:00Z') }];
    expect(
      iso(freeSlots(working, [], rules({ durationMinutes: 50, notBefore: new Date('2030-01-07T08:05:00Z') }))),
    ).toEqual([]);
    expect(
      iso(freeSlots(working, [], rules({ durationMinutes: 20, notBefore: new Date('2030-01-07T08:05:00Z') }))),
    ).toEqual(['2030-01-07T08:15:00.000Z', '2030-01-07T08:30:00.000Z']);
  });

  it('steps past busy time on the grid of the working interval, not of the busy end', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T09:30:00Z') }];
    // Busy until 08:40: the next slot is 08:45 (grid from 08:00), not 08:40.
    const busy = [{ start: new Date('2030-01-07T08:10:00Z'), end: new Date('2030-01-07T08:40:00Z') }];
    expect(iso(freeSlots(working, busy, rules()))).toEqual(['2030-01-07T08:45:00.000Z', '2030-01-07T09:00:00.000Z']);
  });

  it('lets a slot end exactly where busy time starts and start exactly where it ends (half-open ranges)', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T09:30:00Z') }];
    const busy = [{ start: new Date('2030-01-07T08:30:00Z'), end: new Date('2030-01-07T09:00:00Z') }];
    expect(iso(freeSlots(working, busy, rules()))).toEqual(['2030-01-07T08:00:00.000Z', '2030-01-07T09:00:00.000Z']);
  });

  it('merges overlapping and unsorted busy ranges', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T10:00:00Z') }];
    const busy = [
      { start: new Date('2030-01-07T09:00:00Z'), end: new Date('2030-01-07T09:30:00Z') },
      { start: new Date('2030-01-07T08:15:00Z'), end: new Date('2030-01-07T09:10:00Z') },
    ];
    expect(iso(freeSlots(working, busy, rules()))).toEqual(['2030-01-07T09:30:00.000Z']);
  });

  it('gives each working interval its own grid and none when the service does not fit', () => {
    const working = [
      { start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T08:20:00Z') },
      { start: new Date('2030-01-07T13:10:00Z'), end: new Date('2030-01-07T14:00:00Z') },
    ];
    expect(iso(freeSlots(working, [], rules()))).toEqual(['2030-01-07T13:10:00.000Z', '2030-01-07T13:25:00.000Z']);
  });
});

describe('booking: lead time and horizon', () => {
  const from = new Date('2030-01-07T08:00:00Z');

  it('starts no sooner than the minimum notice after now, nor before the range', () => {
    const now = new Date('2030-01-07T07:00:00Z');
    expect(earliestStart(from, now, 0)).toEqual(from);
    expect(earliestStart(from, now, 60)).toEqual(from);
    expect(earliestStart(from, now, 90)).toEqual(new Date('2030-01-07T08:30:00Z'));
    // A range in the past: now (plus notice) wins.
    expect(earliestStart(new Date('2030-01-01T00:00:00Z'), now, 0)).toEqual(now);
  });

  it('reads DEFAULT_AVAILABILITY_DAYS when no end is given', () => {
    expect(DEFAULT_AVAILABILITY_DAYS).toBe(7);
    expect(availabilityEnd(from)).toEqual(new Date('2030-01-14T08:00:00Z'));
    expect(availabilityEnd(from, new Date('2030-01-08T00:00:00Z'))).toEqual(new Date('2030-01-08T00:00:00Z'));
  });

  it('accepts up to MAX_AVAILABILITY_DAYS and refuses more, an empty or a reversed range on `to`', () => {
    const days = (n: number) => new Date(from.getTime() + n * 86_400_000);
    expect(refusal(() => checkRange(from, days(MAX_AVAILABILITY_DAYS)))).toBeNull();
    expect(refusal(() => checkRange(from, new Date(days(MAX_AVAILABILITY_DAYS).getTime() + 1)))).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: ['to'],
    });
    expect(refusal(() => checkRange(from, from))).toEqual({ status: 400, code: 'validation_failed', fields: ['to'] });
    expect(refusal(() => checkRange(from, days(-1)))).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: ['to'],
    });
  });

  it('refuses ranges outside the years the database stores', () => {
    expect(refusal(() => checkRange(new Date('1899-12-01T00:00:00Z'), new Date('1899-12-02T00:00:00Z')))?.status).toBe(
      400,
    );
    expect(refusal(() => checkRange(new Date('9999-06-01T00:00:00Z'), new Date('9999-06-02T00:00:00Z')))?.status).toBe(
      400,
    );
  });
});
