import type { Appointment } from '../../../../entities/core/booking';
import type { CalendarEvent } from '../../../../entities/core/calendar';
import { notFound } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { isModuleActive } from '../../org/activeModules';
import { getBusiness } from '../../org/getBusiness';
import { appointmentsOfStaff, changesSince, eventsOfOwner, latestChange } from '../store/dav';
import { catalogueNames, staffIdsOfUser } from '../store/catalogue';
import { renderEvent } from './icalObject';

/**
 * A member's CalDAV calendar: their own events (read and written by DAV clients) and the appointments of the
 * staff member linked to them (read only), each a resource "<name>.ics" with an ETag from its change number.
 */
export interface DavCalendar {
  ctx: TenantContext;
  userId: string;
  zone: string;
  staffIds: string[];
}

export interface DavResource {
  name: string;
  etag: string;
  ics: string;
  startAt: Date;
  endAt: Date;
  busy: boolean;
  /** Appointments are written through the booking, not by DAV clients. */
  writable: boolean;
}

/** The calendar of the context's member; 404 when the organisation no longer has the `core` module. */
export async function openDavCalendar(ctx: TenantContext): Promise<DavCalendar> {
  const business = await getBusiness(ctx);
  if (!isModuleActive(business, await ctx.services.entitlements.get(ctx.tenantId), 'core')) throw notFound('Calendar');
  return { ctx, userId: ctx.userId!, zone: business.timeZone, staffIds: await staffIdsOfUser(ctx.em, ctx.userId!) };
}

export const eventName = (e: Pick<CalendarEvent, 'id' | 'davName'>): string => e.davName ?? `${e.id}.ics`;
const appointmentName = (a: Pick<Appointment, 'id'>) => `appointment-${a.id}.ics`;
/** The appointment id a resource name names, if it names one. */
export const appointmentIdOfName = (name: string): string | null =>
  /^appointment-([0-9a-f-]{36})\.ics$/.exec(name)?.[1] ?? null;

const etagOf = (prefix: string, seq: number | null | undefined, updatedAt: Date) =>
  `"${prefix}${seq ?? `u${updatedAt.getTime()}`}"`;

export function eventResource(e: CalendarEvent, zone: string): DavResource {
  return {
    name: eventName(e),
    etag: etagOf('e', e.davSeq, e.updatedAt),
    ics:
      e.ical ??
      renderEvent(
        {
          ...e,
          uid: e.icalUid ?? `event-${e.id}@platform-suite`,
          description: e.description ?? null,
          location: e.location ?? null,
        },
        zone,
      ),
    startAt: e.startAt,
    endAt: e.endAt,
    busy: e.busy,
    writable: true,
  };
}

async function appointmentResources(cal: DavCalendar, appointments: Appointment[]): Promise<DavResource[]> {
  const names = (
    await catalogueNames(
      cal.ctx.em,
      appointments.map((a) => a.serviceId),
      [],
    )
  ).services;
  return appointments.map((a) => {
    const service = names.get(a.serviceId) ?? 'Appointment';
    return {
      name: appointmentName(a),
      etag: etagOf('a', a.davSeq, a.updatedAt),
      ics: renderEvent(
        {
          uid: `appointment-${a.id}@platform-suite`,
          title: a.attendeeName ? `${service}: ${a.attendeeName}` : service,
          description: a.notes ?? null,
          location: null,
          startAt: a.startAt,
          endAt: a.endAt,
          allDay: false,
          busy: true,
          status: a.status === 'booked' ? 'tentative' : 'confirmed',
          updatedAt: a.updatedAt,
          createdAt: a.createdAt,
        },
        cal.zone,
      ),
      startAt: a.startAt,
      endAt: a.endAt,
      busy: true,
      writable: false,
    };
  });
}

/** Every resource of the calendar (at most DAV_MAX_RESOURCES of each kind, the latest first). */
export async function listDavResources(cal: DavCalendar): Promise<DavResource[]> {
  const [events, appointments] = await Promise.all([
    eventsOfOwner(cal.ctx.em, cal.userId),
    appointmentsOfStaff(cal.ctx.em, cal.staffIds),
  ]);
  return [...events.map((e) => eventResource(e, cal.zone)), ...(await appointmentResources(cal, appointments))];
}

/** The sync token's number: the latest change of the calendar. */
export const davSyncNumber = (cal: DavCalendar): Promise<number> =>
  latestChange(cal.ctx.em, cal.ctx.tenantId, cal.userId, cal.staffIds);

/** What changed after change number `since`: resources written since, and names gone (deleted, cancelled). */
export async function davChangesSince(
  cal: DavCalendar,
  since: number,
): Promise<{ changed: DavResource[]; gone: string[] }> {
  const { events, appointments, gone } = await changesSince(cal.ctx.em, cal.userId, cal.staffIds, since);
  const live = appointments.filter((a) => a.status !== 'cancelled');
  const liveNames = new Set(events.map(eventName));
  return {
    changed: [...events.map((e) => eventResource(e, cal.zone)), ...(await appointmentResources(cal, live))],
    gone: [
      ...new Set([
        ...gone.filter((n) => !liveNames.has(n)),
        ...appointments.filter((a) => a.status === 'cancelled').map(appointmentName),
      ]),
    ],
  };
}
