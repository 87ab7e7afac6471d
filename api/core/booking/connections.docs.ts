import { prose } from '../../http/docs';

/** Long descriptions of the external calendar routes (api/core/booking/connections.ts). */

export const ownConnectionsDoc = prose`
  External calendars belong to the member who connects them: only they list, read, sync and disconnect them
  (another member's id answers 404). Their busy events block the booking slots of the staff member linked to
  that member, like the member's own busy events (recurring ones at each occurrence).
`;

export const connectDoc = prose`
  ${ownConnectionsDoc} Connects a CalDAV calendar (or every calendar of a CalDAV account) with an app password,
  stored sealed. The first sync starts at once; its outcome shows on the connection (status, lastError). Later
  syncs run every CALENDAR_SYNC_MINUTES and fetch only objects whose ETag changed; a failed sync is retried with
  backoff. A URL the address policy refuses: 422 calendar_url_refused; the same URL twice: 409.
`;

export const syncDoc = prose`
  ${ownConnectionsDoc} Queues a sync now (202); read the connection for its outcome.
`;

export const disconnectDoc = prose`
  ${ownConnectionsDoc} The connection and every busy time read from it go: the slots they blocked are offered again.
`;
