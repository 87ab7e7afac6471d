import { prose } from '../http/docs';

/** Long descriptions of the routes of reports.ts (the OpenAPI text). */

/** What the figures mean (line breaks kept as written). */
const definitions = `A participant is a user who joined the run or appears in its telemetry. Progress = distinct steps passed /
simulationSteps (at most 1). A participant completed on \`simulation_completed\` or once every step is passed.
Completion rate = completed participants / participants. Figures follow telemetry within seconds, also while a run goes on
(the duration of a running session counts up to now).`;

/** GET /reports/sessions */
export const getReportsSessions =
  prose`
  Per session, newest first: completion rate, duration and progress per participant. Filters: roomId, simulation, start
  time range [from, to).
` + `\n\n${definitions}`;

/** GET /reports/overview */
export const getReportsOverview =
  prose`
  Totals, per simulation and per room: runs (and how many still run), participants, completion rate, average progress,
  average duration of the ended runs, events. Filters: roomId, simulation, start time range [from, to).
` + `\n\n${definitions}`;
