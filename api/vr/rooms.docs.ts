import { prose } from '../http/docs';

/** Long descriptions of the routes of rooms.ts (the OpenAPI text). */

/** POST /rooms */
export const postRooms = prose`
  A new room is closed (no headset sees it) until POST /rooms/{id}/open. Assigned participants must be members of the
  organisation (400 otherwise). The tier may cap the number of rooms (entitlement limit \`vrRooms\`; 409
  \`room_limit_reached\`).
`;

/** PATCH /rooms/:id */
export const patchRoomsId = prose`
  Allowed while a session runs: the session keeps the simulation and step count it started with, a lower capacity only
  limits later joins, and an unassigned participant who is present stays until they leave. participantIds replaces the
  list.
`;

/** DELETE /rooms/:id */
export const deleteRoomsId = prose`
  Refused while a session runs (409 \`session_running\`: close the room first, which ends it). The room's sessions and
  reports are kept.
`;

/** POST /rooms/:id/open */
export const postRoomsIdOpen = prose`
  The room becomes visible to its assigned headset users, who may host it. The hub is notified (\`room.opened\`).
  Opening an open room changes nothing.
`;

/** POST /rooms/:id/close */
export const postRoomsIdClose = prose`
  A running session ends (reason \`room_closed\`; everyone present leaves; hub: \`session.ended\`), presence is cleared
  and headsets no longer see the room (hub: \`room.closed\`). Closing a closed room changes nothing.
`;

/** GET /rooms/:id/presence */
export const getRoomsIdPresence = prose`
  Participants of the running session whose presence has not expired (PRESENCE_TTL_SECONDS after their last heartbeat).
  isHost comes from the session.
`;
