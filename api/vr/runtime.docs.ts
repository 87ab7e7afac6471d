import { prose } from '../http/docs';

/** Long descriptions of the routes of runtime.ts (the OpenAPI text). */

/** GET /runtime/rooms */
export const getRuntimeRooms = prose`
  What a headset offers: open rooms the caller is assigned to, with live occupancy (participants present; arrivals and
  departures made through another server instance may show up to 1 s late) and the running session (join it) or none
  (host it). Closed rooms never appear.
`;

/** POST /rooms/:id/host */
export const postRoomsIdHost = prose`
  The first participant to host an open room starts a session (201; hub: \`session.started\`) and is present in it.
  Multiplayer and solo rooms: the caller must be assigned (403 \`not_assigned\`); instructor-led rooms: the caller must
  be an instructor, i.e. hold vr.rooms.manage (403 \`instructor_required\`). While a session runs another host is
  refused (409 \`session_already_running\`); the host repeating the call gets their session back (200). A session whose
  host's presence has expired is no longer running, whether or not the expiry was recorded yet: that expiry ended it
  (\`host_timeout\`, at the time of the expiry; hub: \`session.ended\`) and hosting, by its host or anyone else, starts
  a new one (201). Should the session end before its start was announced (the room closed meanwhile), the hub hears only
  its end. No body.
`;

/** POST /rooms/:id/join */
export const postRoomsIdJoin = prose`
  The caller must be assigned to the room (403 \`not_assigned\`) and a session must run (409 \`no_running_session\`:
  host instead); a session whose host's presence has expired no longer runs, whether or not the expiry was recorded yet:
  the join records its end (\`host_timeout\`, at the time of the expiry; hub: \`session.ended\`) and answers 409
  \`no_running_session\`. Capacity counts the participants present, host included (409 \`room_full\`); a participant
  whose presence has expired is not present: when the room would be full, their departure is recorded (at the time of
  the expiry; hub: \`participant.departed\` with reason \`timeout\`) and the place is taken. Joining again while present
  changes nothing; joining after leaving returns to the same session. Joining after one's presence expired is a new
  arrival, whether or not the expiry was recorded yet (hub: \`participant.departed\` with reason \`timeout\`, then
  \`participant.arrived\`). Hub: \`participant.arrived\`. No body.
`;

/** POST /rooms/:id/heartbeat */
export const postRoomsIdHeartbeat = prose`
  Refreshes the caller's presence record (display name, current step) for PRESENCE_TTL_SECONDS (60 s by default). Only
  present participants of the running session may send it (409 \`not_joined\`: host or join again, e.g. after an
  expiry). Expiry is a departure, at the time of the expiry, whenever it is recorded: a heartbeat past it does not
  revive the presence (409), and joining again is a new arrival. The host's expiry ends the session (reason
  \`host_timeout\`). isHost in the body is informational: the answer and presence report who hosted the session.
`;

/** POST /rooms/:id/leave */
export const postRoomsIdLeave = prose`
  The host leaving ends the session (reason \`host_left\`; everyone present leaves; hub: \`session.ended\`). Anyone else
  leaving is a departure (hub: \`participant.departed\` with reason \`left\`). 409 \`not_joined\` when the caller is not
  present, also when their presence has expired, whether or not the expiry was recorded yet: the expiry was their
  departure, and it is recorded at the time of the expiry (hub: \`participant.departed\` with reason \`timeout\`; the
  host's expiry ends the session with reason \`host_timeout\`).
`;
