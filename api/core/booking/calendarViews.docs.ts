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
  The CalDAV server (its discovery root) and user name; sign in with an app password of scope caldav (POST
  /auth/app-passwords), never the account's password (see docs/calendar.md)
`;
