import { Appointment } from '../../../../entities/core/booking';
import { CalendarDavTombstone, CalendarEvent } from '../../../../entities/core/calendar';
import type { Em } from '../../../../lib/db';

/** Statements of the CalDAV calendar (one per member): its events, its staff's appointments, its changes. */

/** Most resources one member's CalDAV calendar lists (events, and appointments of the staff linked to them). */
export const DAV_MAX_RESOURCES = 5000;

export const eventsOfOwner = (em: Em, ownerId: string): Promise<CalendarEvent[]> =>
  em.find(CalendarEvent, { ownerId }, { orderBy: { startAt: 'desc', id: 'asc' }, limit: DAV_MAX_RESOURCES });

export const eventByDavName = (em: Em, ownerId: string, name: string): Promise<CalendarEvent | null> =>
  em.findOne(CalendarEvent, { ownerId, $or: [{ davName: name }, { davName: null, id: eventIdOfName(name) }] });

/** The id an event without a DAV name is listed by ("<id>.ics"), or a nil uuid for any other name. */
export function eventIdOfName(name: string): string {
  const m = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.ics$/.exec(name);
  return m ? m[1] : '00000000-0000-0000-0000-000000000000';
}

export const appointmentsOfStaff = (em: Em, staffIds: string[], includeCancelled = false): Promise<Appointment[]> =>
  staffIds.length
    ? em.find(
        Appointment,
        { staffId: { $in: staffIds }, ...(includeCancelled ? {} : { status: { $ne: 'cancelled' } }) },
        { orderBy: { startAt: 'desc', id: 'asc' }, limit: DAV_MAX_RESOURCES },
      )
    : Promise.resolve([]);

/** Events, appointments (cancelled ones too: gone for DAV) and tombstones changed after `seq`. */
export async function changesSince(
  em: Em,
  ownerId: string,
  staffIds: string[],
  seq: number,
): Promise<{ events: CalendarEvent[]; appointments: Appointment[]; gone: string[] }> {
  const [events, appointments, tombstones] = await Promise.all([
    em.find(CalendarEvent, { ownerId, davSeq: { $gt: seq } }, { limit: DAV_MAX_RESOURCES }),
    staffIds.length
      ? em.find(Appointment, { staffId: { $in: staffIds }, davSeq: { $gt: seq } }, { limit: DAV_MAX_RESOURCES })
      : Promise.resolve([]),
    em.find(CalendarDavTombstone, { ownerId, seq: { $gt: seq } }, { fields: ['davName'], limit: DAV_MAX_RESOURCES }),
  ]);
  return { events, appointments, gone: tombstones.map((t) => t.davName) };
}

/** The latest change number of a member's calendar (events, their staff's appointments, tombstones); 0 for none. */
export async function latestChange(em: Em, tenantId: string, ownerId: string, staffIds: string[]): Promise<number> {
  const [row] = await em.execute<{ seq: string | null }[]>(
    `select greatest(
       (select max(dav_seq) from calendar_events where tenant_id = ? and owner_id = ?),
       (select max(dav_seq) from booking_appointments where tenant_id = ? and staff_id = any(?::uuid[])),
       (select max(seq) from calendar_dav_tombstones where tenant_id = ? and owner_id = ?)) as seq`,
    [tenantId, ownerId, tenantId, `{${staffIds.join(',')}}`, tenantId, ownerId],
  );
  return Number(row?.seq ?? 0);
}
