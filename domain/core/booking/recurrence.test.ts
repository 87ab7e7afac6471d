import { expandBusy, recurrenceEnd, recurs } from './recurrence';

const PARIS = 'Europe/Paris';
const calendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const iso = (periods: { start: Date; end: Date }[]) =>
  periods.map((p) => `${p.start.toISOString()}/${p.end.toISOString()}`);

// Weekly on Mondays 09:00-10:00 Paris from 2030-03-18 (winter) across the 2030-03-31 change to summer time; the
// 25 March instance is excluded, the 8 April one moved to 14:00-15:00, the 15 April one cancelled.
const weekly = calendar(
  'BEGIN:VEVENT',
  'UID:weekly@test',
  'DTSTAMP:20300101T000000Z',
  'DTSTART;TZID=Europe/Paris:20300318T090000',
  'DTEND;TZID=Europe/Paris:20300318T100000',
  'RRULE:FREQ=WEEKLY;BYDAY=MO',
  'EXDATE;TZID=Europe/Paris:20300325T090000',
  'SUMMARY:Team',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly@test',
  'DTSTAMP:20300101T000000Z',
  'RECURRENCE-ID;TZID=Europe/Paris:20300408T090000',
  'DTSTART;TZID=Europe/Paris:20300408T140000',
  'DTEND;TZID=Europe/Paris:20300408T150000',
  'SUMMARY:Team (moved)',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:weekly@test',
  'DTSTAMP:20300101T000000Z',
  'RECURRENCE-ID;TZID=Europe/Paris:20300415T090000',
  'DTSTART;TZID=Europe/Paris:20300415T090000',
  'DTEND;TZID=Europe/Paris:20300415T100000',
  'STATUS:CANCELLED',
  'END:VEVENT',
);

describe('recurrence expansion', () => {
  it('keeps the wall time across the DST change, drops EXDATEs and cancelled instances, moves overridden ones', () => {
    expect(recurs(weekly)).toBe(true);
    const busy = expandBusy(weekly, PARIS, new Date('2030-03-01T00:00:00Z'), new Date('2030-04-30T00:00:00Z'));
    expect(iso(busy)).toEqual([
      '2030-03-18T08:00:00.000Z/2030-03-18T09:00:00.000Z',
      '2030-04-01T07:00:00.000Z/2030-04-01T08:00:00.000Z',
      '2030-04-08T12:00:00.000Z/2030-04-08T13:00:00.000Z',
      '2030-04-22T07:00:00.000Z/2030-04-22T08:00:00.000Z',
      '2030-04-29T07:00:00.000Z/2030-04-29T08:00:00.000Z',
    ]);
    expect(recurrenceEnd(weekly, PARIS)).toBeNull();
  });

  it('is bounded to the window, however far the rule runs', () => {
    const busy = expandBusy(weekly, PARIS, new Date('2040-01-01T00:00:00Z'), new Date('2040-01-15T00:00:00Z'));
    expect(iso(busy)).toEqual([
      '2040-01-02T08:00:00.000Z/2040-01-02T09:00:00.000Z',
      '2040-01-09T08:00:00.000Z/2040-01-09T09:00:00.000Z',
    ]);
  });

  it('ends with COUNT or UNTIL; floating and all-day times are read in the business zone', () => {
    const daily = calendar(
      'BEGIN:VEVENT',
      'UID:daily@test',
      'DTSTAMP:20300101T000000Z',
      'DTSTART:20301026T120000',
      'DURATION:PT30M',
      'RRULE:FREQ=DAILY;COUNT=3',
      'END:VEVENT',
    );
    expect(iso(expandBusy(daily, PARIS, new Date('2030-10-01T00:00:00Z'), new Date('2030-11-01T00:00:00Z')))).toEqual([
      '2030-10-26T10:00:00.000Z/2030-10-26T10:30:00.000Z',
      '2030-10-27T11:00:00.000Z/2030-10-27T11:30:00.000Z',
      '2030-10-28T11:00:00.000Z/2030-10-28T11:30:00.000Z',
    ]);
    expect(recurrenceEnd(daily, PARIS)?.toISOString()).toBe('2030-10-28T11:30:00.000Z');
    const days = calendar(
      'BEGIN:VEVENT',
      'UID:days@test',
      'DTSTAMP:20300101T000000Z',
      'DTSTART;VALUE=DATE:20301026',
      'DTEND;VALUE=DATE:20301027',
      'RRULE:FREQ=DAILY;UNTIL=20301027',
      'END:VEVENT',
    );
    expect(iso(expandBusy(days, PARIS, new Date('2030-10-01T00:00:00Z'), new Date('2030-11-01T00:00:00Z')))).toEqual([
      '2030-10-25T22:00:00.000Z/2030-10-26T22:00:00.000Z',
      '2030-10-26T22:00:00.000Z/2030-10-27T23:00:00.000Z',
    ]);
  });

  it('reads a transparent series as free, and what is not a recurring object as nothing', () => {
    const free = weekly.replace('SUMMARY:Team\r\n', 'SUMMARY:Team\r\nTRANSP:TRANSPARENT\r\n');
    const busy = expandBusy(free, PARIS, new Date('2030-03-01T00:00:00Z'), new Date('2030-04-30T00:00:00Z'));
    expect(iso(busy)).toEqual(['2030-04-08T12:00:00.000Z/2030-04-08T13:00:00.000Z']);
    expect(expandBusy('not ical', PARIS, new Date(0), new Date())).toEqual([]);
    expect(recurs(calendar('BEGIN:VEVENT', 'UID:x', 'DTSTART:20300101T000000Z', 'END:VEVENT'))).toBe(false);
  });
});
