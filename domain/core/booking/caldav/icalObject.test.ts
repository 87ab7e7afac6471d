import { InvalidCalendarData, parseUtc, readEvent, renderFreeBusy } from './icalObject';
import { checkConditions } from './putDavEvent';
import { DavProblem } from './davProblem';

const PARIS = 'Europe/Paris';
const vevent = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'BEGIN:VEVENT', 'UID:u1', ...lines, 'END:VEVENT', 'END:VCALENDAR', ''].join(
    '\r\n',
  );

describe('caldav: reading a VEVENT (times across the Europe/Paris changes)', () => {
  it.each([
    [
      'UTC',
      ['DTSTART:20300331T080000Z', 'DTEND:20300331T090000Z'],
      '2030-03-31T08:00:00.000Z',
      '2030-03-31T09:00:00.000Z',
    ],
    [
      'TZID after the spring change (CEST)',
      ['DTSTART;TZID=Europe/Paris:20300331T100000', 'DTEND;TZID=Europe/Paris:20300331T110000'],
      '2030-03-31T08:00:00.000Z',
      '2030-03-31T09:00:00.000Z',
    ],
    [
      'TZID the day before (CET)',
      ['DTSTART;TZID=Europe/Paris:20300330T100000', 'DURATION:PT90M'],
      '2030-03-30T09:00:00.000Z',
      '2030-03-30T10:30:00.000Z',
    ],
    [
      'floating time: the business zone, autumn change night',
      ['DTSTART:20301027T013000', 'DTEND:20301027T040000'],
      '2030-10-26T23:30:00.000Z',
      '2030-10-27T03:00:00.000Z',
    ],
    [
      'all-day on the autumn change day: 25 hours',
      ['DTSTART;VALUE=DATE:20301027'],
      '2030-10-26T22:00:00.000Z',
      '2030-10-27T23:00:00.000Z',
    ],
    [
      'TZID of its own VTIMEZONE (not an IANA name)',
      ['DTSTART;TZID=W. Europe:20300701T100000', 'DTEND;TZID=W. Europe:20300701T110000'],
      '2030-07-01T08:00:00.000Z',
      '2030-07-01T09:00:00.000Z',
    ],
  ])('%s', (_name, lines, start, end) => {
    let text = vevent(...lines);
    if (lines[0].includes('W. Europe'))
      text = text.replace(
        'BEGIN:VEVENT',
        [
          'BEGIN:VTIMEZONE',
          'TZID:W. Europe',
          'BEGIN:DAYLIGHT',
          'DTSTART:19700329T020000',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0200',
          'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
          'END:DAYLIGHT',
          'BEGIN:STANDARD',
          'DTSTART:19701025T030000',
          'TZOFFSETFROM:+0200',
          'TZOFFSETTO:+0100',
          'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
          'END:STANDARD',
          'END:VTIMEZONE',
          'BEGIN:VEVENT',
        ].join('\r\n'),
      );
    const e = readEvent(text, PARIS);
    expect([e.startAt.toISOString(), e.endAt.toISOString()]).toEqual([start, end]);
  });

  it('reads title, busy and defaults', () => {
    expect(readEvent(vevent('DTSTART:20300101T080000Z', 'TRANSP:TRANSPARENT', 'SUMMARY:Gym'), PARIS)).toMatchObject({
      uid: 'u1',
      title: 'Gym',
      busy: false,
      allDay: false,
    });
  });

  it.each([
    ['not iCalendar', 'hello'],
    ['no VEVENT', 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n'],
    ['no UID', vevent('DTSTART:20300101T080000Z').replace('UID:u1\r\n', '')],
    ['no DTSTART', vevent('SUMMARY:x')],
    ['end before start', vevent('DTSTART:20300101T080000Z', 'DTEND:20300101T070000Z')],
    ['unknown zone', vevent('DTSTART;TZID=Nowhere:20300101T080000')],
  ])('refuses %s', (_name, text) => expect(() => readEvent(text, PARIS)).toThrow(InvalidCalendarData));
});

describe('caldav: preconditions and helpers', () => {
  const status = (etag: string | null, c: { ifMatch?: string; ifNoneMatch?: string }) => {
    try {
      checkConditions(etag, c);
      return 'ok';
    } catch (err) {
      return err instanceof DavProblem ? err.status : 'other';
    }
  };
  it.each([
    [null, {}, 'ok'],
    [null, { ifNoneMatch: '*' }, 'ok'],
    ['"e1"', { ifNoneMatch: '*' }, 412],
    ['"e1"', { ifMatch: '"e1"' }, 'ok'],
    ['"e1"', { ifMatch: 'W/"e1", "e2"' }, 'ok'],
    ['"e1"', { ifMatch: '"e2"' }, 412],
    [null, { ifMatch: '*' }, 412],
    ['"e1"', { ifMatch: '*' }, 'ok'],
  ] as [string | null, { ifMatch?: string; ifNoneMatch?: string }, string | number][])(
    'etag %p with %p: %p',
    (etag, c, expected) => expect(status(etag, c)).toBe(expected),
  );
  it('parses UTC times and writes free-busy', () => {
    expect(parseUtc('20300331T010000Z')?.toISOString()).toBe('2030-03-31T01:00:00.000Z');
    expect(parseUtc('20300331T010000')).toBeNull();
    expect(
      renderFreeBusy(
        [{ start: new Date('2030-03-31T10:00:00Z'), end: new Date('2030-03-31T11:00:00Z') }],
        new Date('2030-03-31T00:00:00Z'),
        new Date('2030-04-01T00:00:00Z'),
      ),
    ).toContain('FREEBUSY;FBTYPE=BUSY:20300331T100000Z/20300331T110000Z\r\n');
  });
});
