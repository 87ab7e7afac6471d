import { prose } from '../../http/docs';

/** Long descriptions of the calendar views (api/core/booking/calendarViews.ts). */

export const busyKindDoc = prose`
  appointment (its blocked range, buffers included), event (a busy calendar event) or leave (granted HR leave)
`;

export const feedUrlDoc = prose`
  iCalendar (RFC 5545) subscription address; its secret is revocable (POST /api/calendar/sync-info/rotate, DELETE
  /api/calendar/sync-info)
`;

export const calDavDoc = prose`
  CalDAV server and user name when the deployment configures one (CALDAV_URL); sign in with the account's password
`;
