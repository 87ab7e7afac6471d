import { AppError } from '../../../lib/errors';
import { MAX_EVENT_DAYS, normaliseTimes } from './calendarEventRules';

const refusal = (run: () => void) => {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return { status: err.status, fields: err.errors?.map((e) => e.field) ?? [] };
    throw err;
  }
  return null;
};

describe('booking: calendar event times', () => {
  it('stretches all-day events to local midnights of the zone (Paris is UTC+1 in January)', () => {
    const event = { startAt: new Date('2030-01-07T10:00:00Z'), endAt: new Date('2030-01-08T10:00:00Z'), allDay: true };
    normaliseTimes(event, 'Europe/Paris');
    expect([event.startAt.toISOString(), event.endAt.toISOString()]).toEqual([
      '2030-01-06T23:00:00.000Z',
      '2030-01-08T23:00:00.000Z',
    ]);
  });

  it('keeps an all-day event ending at a local midnight on the day before it', () => {
    const event = { startAt: new Date('2030-01-06T23:00:00Z'), endAt: new Date('2030-01-07T23:00:00Z'), allDay: true };
    normaliseTimes(event, 'Europe/Paris');
    expect([event.startAt.toISOString(), event.endAt.toISOString()]).toEqual([
      '2030-01-06T23:00:00.000Z',
      '2030-01-07T23:00:00.000Z',
    ]);
  });

  it('leaves timed events as given, and refuses empty, reversed or too long ones on endAt', () => {
    const event = { startAt: new Date('2030-01-07T10:00:00Z'), endAt: new Date('2030-01-07T11:00:00Z'), allDay: false };
    normaliseTimes(event, 'Europe/Paris');
    expect(event.endAt.toISOString()).toBe('2030-01-07T11:00:00.000Z');
    const at = (end: string) => ({ startAt: new Date('2030-01-07T10:00:00Z'), endAt: new Date(end), allDay: false });
    expect(refusal(() => normaliseTimes(at('2030-01-07T10:00:00Z'), 'UTC'))).toEqual({
      status: 400,
      fields: ['endAt'],
    });
    expect(refusal(() => normaliseTimes(at('2030-01-07T09:00:00Z'), 'UTC'))).toEqual({
      status: 400,
      fields: ['endAt'],
    });
    const longest = new Date(new Date('2030-01-07T10:00:00Z').getTime() + MAX_EVENT_DAYS * 86_400_000).toISOString();
    expect(refusal(() => normaliseTimes(at(longest), 'UTC'))).toBeNull();
    expect(refusal(() => normaliseTimes(at(new Date(new Date(longest).getTime() + 1).toISOString()), 'UTC'))).toEqual({
      status: 400,
      fields: ['endAt'],
    });
  });
});
