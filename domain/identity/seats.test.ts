import { seatLimit, seatLimitReached, seatsFull } from './seats';

describe('seats', () => {
  it('reads the tier limit `seats`, none when the tier has no such number', () => {
    expect(seatLimit({ limits: { seats: 3 } })).toBe(3);
    expect(seatLimit({ limits: { seats: 0 } })).toBe(0);
    expect(seatLimit({ limits: {} })).toBeNull();
    expect(seatLimit({ limits: { storageBytes: 10 } })).toBeNull();
  });

  it('is full when one more member would pass the limit, never without a limit', () => {
    expect(seatsFull(3, 2)).toBe(false);
    expect(seatsFull(3, 3)).toBe(true);
    expect(seatsFull(3, 5)).toBe(true);
    expect(seatsFull(0, 0)).toBe(true);
    expect(seatsFull(null, 10_000)).toBe(false);
  });

  it('answers 409 seat_limit_reached naming the limit', () => {
    expect(seatLimitReached(5)).toMatchObject({
      status: 409,
      code: 'seat_limit_reached',
      message: 'The plan of this organisation allows 5 members; remove one or upgrade',
    });
  });
});
