import { prose } from '../http/docs';

/** Long descriptions of the schemas of dtos.ts (the OpenAPI text). */

/** CreateRoomBody.mode */
export const roomModeDescription = prose`
  solo: one participant (capacity 1). multiplayer: assigned participants host and join. instructor_led: an instructor
  (vr.rooms.manage) hosts, assigned participants join
`;

/** TelemetryEventBody.userId */
export const telemetryEventUser = prose`
  Whose event; defaults to the sender. The sender, a user who hosted or joined this session, or an id that is not a
  member of the organisation (a simulated trainee of an instructor's headset); a member who never joined: 422
  not_a_participant
`;
