import type { AppointmentStatus } from '../../../entities/core/booking';
import { AppError } from '../../../lib/errors';
import {
  checkMovable,
  checkOpenToVisitor,
  checkPairing,
  checkStatusMove,
  placeAt,
  STATUS_MOVES,
} from './appointmentRules';

/** The error a rule throws: status, code and the fields it names; null when it passes. */
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

const statuses: AppointmentStatus[] = ['booked', 'confirmed', 'completed', 'no_show', 'cancelled'];

describe('booking: buffers and the blocked range', () => {
  const at = () => ({ startAt: new Date(0), endAt: new Date(0), blockedFrom: new Date(0), blockedUntil: new Date(0) });

  it('ends after the duration and blocks the buffers before and after', () => {
    const a = at();
    placeAt(a, new Date('2030-01-07T09:00:00Z'), {
      durationMinutes: 45,
      bufferBeforeMinutes: 10,
      bufferAfterMinutes: 15,
    });
    expect(a).toEqual({
      startAt: new Date('2030-01-07T09:00:00Z'),
      endAt: new Date('2030-01-07T09:45:00Z'),
      blockedFrom: new Date('2030-01-07T08:50:00Z'),
      blockedUntil: new Date('2030-01-07T10:00:00Z'),
    });
  });

  it('blocks exactly the appointment without buffers', () => {
    const a = at();
    placeAt(a, new Date('2030-01-07T23:30:00Z'), {
      durationMinutes: 60,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
    });
    expect([a.blockedFrom, a.blockedUntil]).toEqual([
      new Date('2030-01-07T23:30:00Z'),
      new Date('2030-01-08T00:30:00Z'),
    ]);
  });

  it('refuses a start whose buffers leave the storable instants (400 on start)', () => {
    const early = new Date('0001-01-01T00:05:00Z');
    expect(
      refusal(() => placeAt(at(), early, { durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0 })),
    ).toBeNull();
    expect(
      refusal(() => placeAt(at(), early, { durationMinutes: 30, bufferBeforeMinutes: 10, bufferAfterMinutes: 0 })),
    ).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: ['start'],
    });
  });
});

describe('booking: who may take a service', () => {
  const service = { id: 's1', capacity: 3 };

  it('takes staff performing the service (an empty list means every service) and parties within capacity', () => {
    expect(refusal(() => checkPairing(service, { serviceIds: [] }, 3))).toBeNull();
    expect(refusal(() => checkPairing(service, { serviceIds: ['s2', 's1'] }, 1))).toBeNull();
  });

  it('refuses other staff on the field the caller changed, and larger parties on partySize', () => {
    expect(refusal(() => checkPairing(service, { serviceIds: ['s2'] }, 1))).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: ['staffId'],
    });
    expect(refusal(() => checkPairing(service, { serviceIds: ['s2'] }, 1, 'serviceId'))?.fields).toEqual(['serviceId']);
    expect(refusal(() => checkPairing(service, { serviceIds: [] }, 4))).toEqual({
      status: 400,
      code: 'validation_failed',
      fields: ['partySize'],
    });
  });
});

describe('booking: status moves', () => {
  it('allows exactly the moves of STATUS_MOVES, and staying put', () => {
    for (const from of statuses) {
      for (const to of statuses) {
        const allowed = from === to || STATUS_MOVES[from].includes(to);
        expect([from, to, refusal(() => checkStatusMove(from, to))]).toEqual([
          from,
          to,
          allowed ? null : { status: 409, code: 'invalid_transition', fields: [] },
        ]);
      }
    }
    expect(STATUS_MOVES.booked).toEqual(['confirmed', 'cancelled']);
    expect(STATUS_MOVES.confirmed).toEqual(['completed', 'no_show', 'cancelled']);
  });

  it('reschedules live appointments only', () => {
    expect(statuses.filter((s) => refusal(() => checkMovable(s)) === null)).toEqual(['booked', 'confirmed']);
  });
});

describe('booking: the visitor cancellation window', () => {
  const now = new Date('2030-01-07T09:00:00Z');

  it('is open for a live booking until its start', () => {
    expect(
      refusal(() => checkOpenToVisitor({ status: 'booked', startAt: new Date('2030-01-07T09:00:01Z') }, now)),
    ).toBeNull();
    expect(
      refusal(() => checkOpenToVisitor({ status: 'confirmed', startAt: new Date('2030-02-01T00:00:00Z') }, now)),
    ).toBeNull();
  });

  it('closes at the start: 409 booking_started', () => {
    expect(refusal(() => checkOpenToVisitor({ status: 'booked', startAt: now }, now))).toEqual({
      status: 409,
      code: 'booking_started',
      fields: [],
    });
    expect(
      refusal(() => checkOpenToVisitor({ status: 'confirmed', startAt: new Date('2030-01-07T08:00:00Z') }, now))?.code,
    ).toBe('booking_started');
  });

  it('is closed for cancelled, completed and no-show bookings: 409 invalid_transition', () => {
    for (const status of ['cancelled', 'completed', 'no_show'] as const) {
      expect(refusal(() => checkOpenToVisitor({ status, startAt: new Date('2030-02-01T00:00:00Z') }, now))?.code).toBe(
        'invalid_transition',
      );
    }
  });
});
