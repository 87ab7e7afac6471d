import { prose } from '../../http/docs';

/** Long descriptions of the calendar routes (api/core/booking/calendar.ts). */

/** Said of every route of calendar events. */
export const ownEventsDoc = prose`
  Events belong to the member who creates them: only they list, read, edit and delete them (another member's id
  answers 404); others see their time through free-busy, without titles.
`;

export const listEventsDoc = prose`
  ${ownEventsDoc} Events overlapping [from, to), by start. Keyset pagination: pass nextCursor back with the same
  filters.
`;

export const createEventDoc = prose`
  ${ownEventsDoc} Busy events (the default) show in free-busy and remove booking slots of the staff member linked
  to the owner, or of staffId (naming another staff member than one's own takes core.appointments.manage). All-day
  events are stretched to local midnights in the business's time zone. Times are stored in UTC.
`;

export const updateEventDoc = prose`
  ${ownEventsDoc} Absent fields stay; null clears description, location or staffId.
`;

export const freeBusyDoc = prose`
  For each staff member (staffIds, or every active one), the periods they are taken between from and to (at most
  62 days, within years 1900 to 9998), each with its reason: live appointments (blocked range, buffers included),
  busy calendar events (on the staff member or owned by their linked member) and granted HR leave of their linked
  employee (whole local days, or the half before / after 13:00). Periods are clipped to the range, sorted by
  start, and may overlap. No titles: anyone of the organisation may read it.
`;

/** Said of every route of the feed address. */
export const feedAddressDoc = prose`
  The feed address is a capability: \`<feedId>.<secret>.ics\`, the secret derived from the feed id with a server
  key, only its SHA-256 stored. It stops working when rotated or revoked, when the member leaves the organisation,
  or when the organisation loses the core module.
`;

export const syncInfoDoc = prose`
  The caller's iCalendar feed address (made on the first call; calendar apps subscribe to it) and the CalDAV
  details where the deployment configures a server. ${feedAddressDoc}
`;

export const rotateFeedDoc = prose`
  The old address stops working at once; answers the new one. ${feedAddressDoc}
`;

export const revokeFeedDoc = prose`
  The address stops working at once; a later sync-info makes a new one. ${feedAddressDoc}
`;

export const feedDoc = prose`
  RFC 5545 (text/calendar): the member's own events and the appointments of the staff member linked to them, from
  60 days ago to a year ahead; UTC times, all-day events as dates in the business's zone, stable UIDs.
  ${feedAddressDoc} Unknown or revoked: 404. Rate limited per IP.
`;
