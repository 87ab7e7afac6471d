import { CalendarEvent } from '../../../../entities/core/calendar';
import { AppError } from '../../../../lib/errors';
import { normaliseTimes } from '../calendarEventRules';
import { eventByDavName } from '../store/dav';
import { appointmentIdOfName, eventResource, type DavCalendar } from './davCalendar';
import { DavProblem, CALDAV_NS } from './davProblem';
import { InvalidCalendarData, readEvent } from './icalObject';
import { recurrenceEnd, recurs } from '../recurrence';

export interface Conditions {
  ifMatch?: string;
  ifNoneMatch?: string;
}

/** The If-Match / If-None-Match preconditions of a write against the resource's current ETag (412 otherwise). */
export function checkConditions(etag: string | null, c: Conditions): void {
  const listed = (header: string) => header.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (c.ifMatch !== undefined && (etag === null || (c.ifMatch.trim() !== '*' && !listed(c.ifMatch).includes(etag))))
    throw new DavProblem(412, null, 'If-Match does not match the current ETag');
  if (
    c.ifNoneMatch !== undefined &&
    etag !== null &&
    (c.ifNoneMatch.trim() === '*' || listed(c.ifNoneMatch).includes(etag))
  )
    throw new DavProblem(412, null, 'the resource exists (If-None-Match)');
}

/**
 * A DAV client writes an event (PUT <name>.ics): created, or replaced when the name exists, under the
 * preconditions. The object is kept as written (GET answers it as is) with the fields read from it: it appears
 * in /api/calendar/events and, busy, blocks the member's booking slots like any event. Appointments are read
 * only (403), a UID already used by another resource is refused (no-uid-conflict).
 */
export async function putDavEvent(
  cal: DavCalendar,
  name: string,
  body: string,
  conditions: Conditions,
): Promise<{ created: boolean; etag: string }> {
  if (appointmentIdOfName(name))
    throw new DavProblem(403, { ns: 'DAV:', name: 'need-privileges' }, 'appointments change through the booking');
  if (!/^[A-Za-z0-9@._~+-]{1,250}\.ics$/.test(name))
    throw new DavProblem(403, { ns: CALDAV_NS, name: 'valid-calendar-object-resource' }, 'a name "<uid>.ics" expected');
  let fields;
  try {
    fields = readEvent(body, cal.zone);
    normaliseTimes({ ...fields }, cal.zone);
  } catch (err) {
    if (err instanceof InvalidCalendarData || err instanceof AppError)
      throw new DavProblem(403, { ns: CALDAV_NS, name: 'valid-calendar-data' }, err.message);
    throw err;
  }
  const em = cal.ctx.em;
  const existing = await eventByDavName(em, cal.userId, name);
  checkConditions(existing ? eventResource(existing, cal.zone).etag : null, conditions);
  const sameUid = await em.findOne(CalendarEvent, { ownerId: cal.userId, icalUid: fields.uid }, { fields: ['id'] });
  if (sameUid && sameUid.id !== existing?.id)
    throw new DavProblem(403, { ns: CALDAV_NS, name: 'no-uid-conflict' }, `UID ${fields.uid} is another resource's`);
  const { uid, ...rest } = fields;
  const event =
    existing ??
    em.create(CalendarEvent, {
      tenantId: cal.ctx.tenantId,
      ownerId: cal.userId,
      staffId: null,
      ...rest,
      davName: name,
    });
  // A recurring object's occurrences are expanded when availability is read (domain/core/booking/recurrence.ts).
  const recurring = recurs(body);
  Object.assign(event, rest, {
    icalUid: uid,
    davName: name,
    ical: body,
    recurring,
    recursUntil: recurring ? recurrenceEnd(body, cal.zone) : null,
    updatedAt: new Date(),
  });
  normaliseTimes(event, cal.zone);
  await em.flush();
  const [row] = await em.execute<{ dav_seq: string }[]>(`select dav_seq from calendar_events where id = ?`, [event.id]);
  event.davSeq = Number(row.dav_seq);
  return { created: !existing, etag: eventResource(event, cal.zone).etag };
}
