import ICAL from 'ical.js';
import ical, { ICalEventBusyStatus, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import { DateTime } from 'luxon';
import { CALENDAR_EVENT_SIZES } from '../../../../entities/core/calendar';

/** iCalendar objects (RFC 5545) of the CalDAV calendar: read what a client PUTs, write what GET answers. */

/** What a client's VEVENT gives an event. */
export interface DavEventFields {
  uid: string;
  title: string;
  description: string | null;
  location: string | null;
  startAt: Date;
  endAt: Date;
  allDay: boolean;
  busy: boolean;
}

/** Why a body is not a calendar object this calendar stores (CalDAV precondition `valid-calendar-data`). */
export class InvalidCalendarData extends Error {}

const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

/** An instant of a DATE-TIME: UTC, its TZID (an IANA zone, or the object's VTIMEZONE), or floating in `zone`. */
export function instantOf(time: ICAL.Time, tzid: string | null, root: ICAL.Component, zone: string): Date {
  if (time.zone === ICAL.Timezone.utcTimezone) return time.toJSDate();
  const local = {
    year: time.year,
    month: time.month,
    day: time.day,
    hour: time.hour,
    minute: time.minute,
    second: time.second,
  };
  if (tzid) {
    const iana = DateTime.fromObject(local, { zone: tzid });
    if (iana.isValid) return iana.toJSDate();
    const vtz = root.getAllSubcomponents('vtimezone').find((c) => c.getFirstPropertyValue('tzid') === tzid);
    if (!vtz) throw new InvalidCalendarData(`unknown time zone ${tzid}`);
    const converted = time.clone();
    converted.zone = new ICAL.Timezone(vtz);
    return converted.toJSDate();
  }
  return DateTime.fromObject(local, { zone }).toJSDate();
}

/**
 * The event of a calendar object: its first VEVENT (the master of a recurring one, whose later instances are
 * expanded at read time: ../recurrence.ts), DTEND or DURATION (or one day for a DATE start, none for a DATE-TIME
 * one), TRANSP TRANSPARENT = free. All-day events keep their dates as local midnights of `zone` (the business's). Throws
 * InvalidCalendarData for what is not iCalendar, has no VEVENT or no UID, or ends before it starts.
 */
export function readEvent(text: string, zone: string): DavEventFields {
  let root: ICAL.Component;
  try {
    root = new ICAL.Component(ICAL.parse(text));
  } catch {
    throw new InvalidCalendarData('not an iCalendar object');
  }
  if (root.name !== 'vcalendar') throw new InvalidCalendarData('not a VCALENDAR');
  const vevent = root.getAllSubcomponents('vevent').find((c) => !c.hasProperty('recurrence-id'));
  if (!vevent) throw new InvalidCalendarData('no VEVENT');
  const uid = vevent.getFirstPropertyValue('uid');
  if (typeof uid !== 'string' || !uid || uid.length > 255) throw new InvalidCalendarData('a VEVENT needs a UID');
  const startProp = vevent.getFirstProperty('dtstart');
  const start = startProp?.getFirstValue();
  if (!(start instanceof ICAL.Time)) throw new InvalidCalendarData('a VEVENT needs a DTSTART');
  const allDay = start.isDate;
  const tzOf = (p: ICAL.Property | null) => {
    const value = p?.getParameter('tzid');
    return typeof value === 'string' ? value : null;
  };
  const at = (t: ICAL.Time, p: ICAL.Property | null) =>
    allDay
      ? DateTime.fromObject({ year: t.year, month: t.month, day: t.day }, { zone }).toJSDate()
      : instantOf(t, tzOf(p), root, zone);
  const startAt = at(start, startProp);
  let endAt: Date;
  const endProp = vevent.getFirstProperty('dtend');
  const end = endProp?.getFirstValue();
  const duration = vevent.getFirstPropertyValue('duration');
  if (end instanceof ICAL.Time) endAt = at(end, endProp);
  else if (duration instanceof ICAL.Duration) endAt = new Date(startAt.getTime() + duration.toSeconds() * 1000);
  else
    endAt = allDay
      ? DateTime.fromJSDate(startAt, { zone }).plus({ days: 1 }).toJSDate()
      : new Date(startAt.getTime() + 1000);
  if (!(startAt < endAt)) throw new InvalidCalendarData('DTEND must be after DTSTART');
  const str = (name: string) => {
    const value = vevent.getFirstPropertyValue(name);
    return typeof value === 'string' && value.trim() ? value : null;
  };
  return {
    uid,
    title: clip(str('summary'), CALENDAR_EVENT_SIZES.title) ?? '(no title)',
    description: clip(str('description'), CALENDAR_EVENT_SIZES.description),
    location: clip(str('location'), CALENDAR_EVENT_SIZES.location),
    startAt,
    endAt,
    allDay,
    busy: String(vevent.getFirstPropertyValue('transp') ?? 'OPAQUE').toUpperCase() !== 'TRANSPARENT',
  };
}

/** An event of ours as a calendar object (when no client wrote it, or it changed through the API since). */
export interface RenderedEvent {
  uid: string;
  title: string;
  description: string | null;
  location: string | null;
  startAt: Date;
  endAt: Date;
  allDay: boolean;
  busy: boolean;
  status?: 'tentative' | 'confirmed';
  updatedAt: Date;
  createdAt: Date;
}

export function renderEvent(e: RenderedEvent, zone: string): string {
  const calendar = ical({ prodId: { company: 'Platform Suite', product: 'CalDAV', language: 'EN' } });
  const zoned = (d: Date) => DateTime.fromJSDate(d, { zone });
  calendar.createEvent({
    id: e.uid,
    start: e.allDay ? zoned(e.startAt) : e.startAt,
    end: e.allDay ? zoned(e.endAt) : e.endAt,
    allDay: e.allDay,
    summary: e.title,
    description: e.description,
    location: e.location,
    status: e.status === 'tentative' ? ICalEventStatus.TENTATIVE : e.status ? ICalEventStatus.CONFIRMED : null,
    transparency: e.busy ? ICalEventTransparency.OPAQUE : ICalEventTransparency.TRANSPARENT,
    busystatus: e.busy ? ICalEventBusyStatus.BUSY : ICalEventBusyStatus.FREE,
    lastModified: e.updatedAt,
    created: e.createdAt,
  });
  return `${calendar.toString()}\r\n`;
}

const ical8601 = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** A VFREEBUSY answer (RFC 4791 7.10) of busy periods in [from, to). */
export function renderFreeBusy(busy: { start: Date; end: Date }[], from: Date, to: Date, now = new Date()): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Platform Suite//CalDAV//EN',
    'BEGIN:VFREEBUSY',
    `DTSTAMP:${ical8601(now)}`,
    `DTSTART:${ical8601(from)}`,
    `DTEND:${ical8601(to)}`,
    ...busy.map((b) => `FREEBUSY;FBTYPE=BUSY:${ical8601(b.start)}/${ical8601(b.end)}`),
    'END:VFREEBUSY',
    'END:VCALENDAR',
  ];
  return `${lines.join('\r\n')}\r\n`;
}

/** An iCalendar UTC time ("20260329T010000Z") as an instant; null when malformed. */
export function parseUtc(value: string | undefined): Date | null {
  const m = value ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value) : null;
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]));
  return Number.isNaN(d.getTime()) ? null : d;
}
