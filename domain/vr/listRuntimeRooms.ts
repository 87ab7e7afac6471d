import { VrRoom } from '../../entities/vr/room';
import { lean, rawDate, type LeanRow } from '../../lib/lean';
import type { TenantContext } from '../context';
import { LiveRooms } from './store/liveRooms';

/** The running session of a room, as a headset needs it to join. */
export interface RuntimeSession {
  id: string;
  hostUserId: string;
  startedAt: Date;
}

/** What a headset is shown of a room. */
const shown = ['id', 'name', 'simulation', 'simulationSteps', 'mode', 'capacity'] as const;

export interface RuntimeRoom {
  room: LeanRow<VrRoom, never, (typeof shown)[number]>;
  /** Participants present now. */
  occupancy: number;
  session: RuntimeSession | null;
}

// A lean statement (docs/database-path.md): headsets poll this list, so the rooms and their running sessions
// come in one round trip (the session joined in, of the same tenant), with only the columns a headset is shown.
export const openRoomsAssignedTo = lean(VrRoom, {
  columns: shown,
  join: 'left join vr_sessions s on s.id = vr_rooms.current_session_id and s.tenant_id = vr_rooms.tenant_id',
  where: `vr_rooms.status = 'open' and vr_rooms.participant_ids @> array[$1::uuid]`,
  orderBy: 'vr_rooms.name asc, vr_rooms.id asc',
  limit: 500,
  extra: { sessionId: 's.id', sessionHostUserId: 's.host_user_id', sessionStartedAt: 's.started_at' },
});

/** The open rooms assigned to the caller (what a headset offers to host or join), with live occupancy. */
export async function listRuntimeRooms(ctx: TenantContext): Promise<RuntimeRoom[]> {
  const rows = await openRoomsAssignedTo.all(ctx, ctx.userId!);
  const occupancy = await new LiveRooms(ctx.services).occupancy(rows.filter((r) => r.sessionId).map((r) => r.id));
  return rows.map(({ sessionId, sessionHostUserId, sessionStartedAt, ...room }) => ({
    room,
    occupancy: occupancy.get(room.id) ?? 0,
    session: sessionId ? { id: sessionId as string, hostUserId: sessionHostUserId as string, startedAt: rawDate(sessionStartedAt) } : null,
  }));
}
