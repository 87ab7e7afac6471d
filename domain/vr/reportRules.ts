import type { OverviewRow } from './store/reports';
import type { OverviewFigures } from './overviewReport';

/** How the reports count (sessionReports.ts, overviewReport.ts). */

/** Distinct steps passed / the simulation's steps, at most 1 (a simulation without steps counts as one). */
export const progressOf = (stepsPassed: number, steps: number) => Math.min(1, stepsPassed / Math.max(1, steps));

/** part / whole; null when there is no whole. */
export const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : null);

/** A grouping set's figures as the overview answers them (PostgreSQL sums come as text); a missing row is all zero. */
export function overviewFigures(row: OverviewRow | null): OverviewFigures {
  const participants = Number(row?.participants ?? 0);
  const completed = Number(row?.completed ?? 0);
  const duration = row?.avg_duration;
  return {
    runs: row?.runs ?? 0,
    runningRuns: row?.running ?? 0,
    participants,
    completedParticipants: completed,
    completionRate: ratio(completed, participants),
    averageProgress: ratio(Number(row?.progress ?? 0), participants),
    averageDurationSeconds: duration === null || duration === undefined ? null : Math.round(Number(duration)),
    events: Number(row?.events ?? 0),
  };
}
