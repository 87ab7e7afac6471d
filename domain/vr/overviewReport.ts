import type { TenantContext } from '../context';
import { overviewRows } from './store/reports';
import { overviewFigures } from './reportRules';

export interface OverviewFilters {
  simulation?: string;
  roomId?: string;
  /** Sessions started at or after this time. */
  from?: Date;
  /** Sessions started before this time. */
  to?: Date;
}

export interface OverviewFigures {
  runs: number;
  /** Runs still going on. */
  runningRuns: number;
  /** Participations (a user in a run), joined or seen in telemetry. */
  participants: number;
  completedParticipants: number;
  /** completedParticipants / participants; null without participants. */
  completionRate: number | null;
  /** Mean progress of the participations (0..1); null without participants. */
  averageProgress: number | null;
  /** Mean duration of the ended runs, in seconds; null when none ended. */
  averageDurationSeconds: number | null;
  events: number;
}

export interface Overview {
  totals: OverviewFigures;
  bySimulation: (OverviewFigures & { simulation: string })[];
  byRoom: (OverviewFigures & { roomId: string; roomName: string })[];
}

/** Runs, completion, progress and duration per simulation, per room and overall (from the aggregate tables). */
export async function overviewReport(ctx: TenantContext, filters: OverviewFilters): Promise<Overview> {
  const rows = await overviewRows(ctx.em, ctx.tenantId, filters);

  const overview: Overview = { totals: overviewFigures(null), bySimulation: [], byRoom: [] };
  for (const row of rows) {
    // grouping() is 1 for a column rolled up in this row's grouping set.
    if (row.by_simulation && row.by_room) overview.totals = overviewFigures(row);
    else if (!row.by_simulation) overview.bySimulation.push({ simulation: row.simulation!, ...overviewFigures(row) });
    else overview.byRoom.push({ roomId: row.room_id!, roomName: row.room_name ?? '', ...overviewFigures(row) });
  }
  return overview;
}
