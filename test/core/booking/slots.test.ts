import { freeSlots, weeklyIntervals } from '../../../domain/core/booking/slots';

/** Pure slot computation on known schedules (no database). */
describe('booking: slot computation', () => {
  const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
  const rules = (over: Partial<Parameters<typeof freeSlots>[2]> = {}) => ({ durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, notBefore: new Date(0), ...over });

  it('keeps 09:00 local across the DST change week in Europe/Paris (UTC+1 then UTC+2)', () => {
    // Monday 23 to Sunday 29 March 2026; clocks go forward on Sunday 29 at 02:00.
    const hours = { '1': ['09:00-10:00'], '6': ['09:00-10:00'], '7': ['01:00-04:00', '09:00-10:00'] };
    const intervals = weeklyIntervals(hours, 'Europe/Paris', { from: new Date('2026-03-23T00:00:00Z'), to: new Date('2026-03-30T00:00:00Z') });
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
    const intervals = weeklyIntervals({ '6': ['09:00-09:30'], '7': ['09:00-09:30'] }, 'Europe/Paris', { from: new Date('2026-10-24T00:00:00Z'), to: new Date('2026-10-26T00:00:00Z') });
    expect(intervals.map((i) => i.start.toISOString())).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z']);
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
    expect(iso(freeSlots(working, busy, rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 })))).toEqual(['2030-01-07T08:00:00.000Z', '2030-01-07T08:15:00.000Z']);
  });

  it('applies the minimum notice on the grid and fits the duration inside the working time', () => {
    const working = [{ start: new Date('2030-01-07T08:00:00Z'), end: new Date('2030-01-07T09:00:00Z') }];
    expect(iso(freeSlots(working, [], rules({ durationMinutes: 50, notBefore: new Date('2030-01-07T08:05:00Z') })))).toEqual([]);
    expect(iso(freeSlots(working, [], rules({ durationMinutes: 20, notBefore: new Date('2030-01-07T08:05:00Z') })))).toEqual(['2030-01-07T08:15:00.000Z', '2030-01-07T08:30:00.000Z']);
  });
});
