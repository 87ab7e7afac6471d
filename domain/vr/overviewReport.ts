import type { TenantContext } from '../context';
import { ratio } from './sessionReports';

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

interface Row {
  simulation: string | null;
  room_id: string | null;
  room_name: string | null;
  by_simulation: number;
  by_room: number;
  runs: number;
  running: number;
  participants: string | number | null;
  completed: string | number | null;
  progress: number | null;
  avg_duration: string | number | null;
  events: string | number | null;
}

// One pass over the filtered sessions and their participant aggregates; GROUPING SETS gives the per
// simulation, per room and overall figures together.
const SQL = `
with s as (
  select id, room_id, room_name, started_at, simulation, simulation_steps, status, events_count,
         extract(epoch from (coalesce(ended_at, now()) - started_at)) as duration
  from vr_sessions where tenant_id = ? /*filters*/
), p as (
  select p.session_id, count(*) as participants, count(p.completed_at) as completed,
         sum(least(p.steps_passed::float8 / greatest(s.simulation_steps, 1), 1)) as progress
  from vr_session_participants p join s on s.id = p.session_id
  where p.tenant_id = ?
  group by p.session_id
)
select s.simulation, s.room_id, (array_agg(s.room_name order by s.started_at desc))[1] as room_name,
       grouping(s.simulation)::int as by_simulation, grouping(s.room_id)::int as by_room,
       count(*)::int as runs, (count(*) filter (where s.status = 'running'))::int as running,
       sum(p.participants) as participants, sum(p.completed) as completed, sum(p.progress) as progress,
       avg(s.duration) filter (where s.status = 'ended') as avg_duration, sum(s.events_count) as events
from s left join p on p.session_id = s.id
group by grouping sets ((s.simulation), (s.room_id), ())
order by 1, 2`;

/** Runs, completion, progress and duration per simulation, per room and overall (from the aggregate tables). */
export async function overviewReport(ctx: TenantContext, filters: OverviewFilters): Promise<Overview> {
  const conditions: [string, unknown][] = [];
  if (filters.simulation) conditions.push(['simulation = ?', filters.simulation]);
  if (filters.roomId) conditions.push(['room_id = ?', filters.roomId]);
  if (filters.from) conditions.push(['started_at >= ?', filters.from]);
  if (filters.to) conditions.push(['started_at < ?', filters.to]);
  const sql = SQL.replace('/*filters*/', conditions.map(([c]) => `and ${c}`).join(' '));
  const rows = await ctx.em.execute<Row[]>(sql, [ctx.tenantId, ...conditions.map(([, v]) => v), ctx.tenantId]);

  const overview: Overview = { totals: figures(null), bySimulation: [], byRoom: [] };
  for (const row of rows) {
    // grouping() is 1 for a column rolled up in this row's grouping set.
    if (row.by_simulation && row.by_room) overview.totals = figures(row);
    else if (!row.by_simulation) overview.bySimulation.push({ simulation: row.simulation!, ...figures(row) });
    else overview.byRoom.push({ roomId: row.room_id!, roomName: row.room_name ?? '', ...figures(row) });
  }
  return overview;
}

function figures(row: Row | null): OverviewFigures {
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
