import type { Em } from '../../../lib/db';

/** One grouping set's figures (grouping() is 1 for a column rolled up in the row's set). */
export interface OverviewRow {
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

/**
 * The overview's figures of the organisation's sessions matching the filters: per simulation, per room and
 * overall (grouping sets), sorted by simulation then room.
 */
export function overviewRows(
  em: Em,
  tenantId: string,
  filters: { simulation?: string; roomId?: string; from?: Date; to?: Date },
): Promise<OverviewRow[]> {
  const conditions: [string, unknown][] = [];
  if (filters.simulation) conditions.push(['simulation = ?', filters.simulation]);
  if (filters.roomId) conditions.push(['room_id = ?', filters.roomId]);
  if (filters.from) conditions.push(['started_at >= ?', filters.from]);
  if (filters.to) conditions.push(['started_at < ?', filters.to]);
  const sql = SQL.replace('/*filters*/', conditions.map(([c]) => `and ${c}`).join(' '));
  return em.execute<OverviewRow[]>(sql, [tenantId, ...conditions.map(([, v]) => v), tenantId]);
}
