import { prose } from '../http/docs';

/** Long descriptions of the routes of sessions.ts (the OpenAPI text). */

/** GET /sessions */
export const getSessions = prose`
  One record per run of a simulation, newest first. Filters: roomId, simulation, status, and the start time range [from,
  to).
`;
