import { VrRoom } from '../../entities/vr/room';
import { VrSession } from '../../entities/vr/session';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { LiveRooms } from './live';

export interface RuntimeRoom {
  room: Lean<VrRoom>;
  /** Participants present now. */
  occupancy: number;
  session: Lean<VrSession> | null;
}

// Lean statements (docs/database-path.md): headsets poll this list, it only presents rows.
const openRoomsAssignedTo = lean(VrRoom, { where: `status = 'open' and participant_ids @> array[$1::uuid]`, orderBy: 'name asc, id asc', limit: 500 });
const sessionsByIds = lean(VrSession, { where: 'id = any($1::uuid[])' });

/** The open rooms assigned to the caller (what a headset offers to host or join), with live occupancy. */
export async function listRuntimeRooms(ctx: TenantContext): Promise<RuntimeRoom[]> {
  const rooms = await openRoomsAssignedTo.all(ctx, ctx.userId!);
  const live = rooms.filter((r) => r.currentSessionId);
  const [sessions, occupancy] = await Promise.all([
    live.length ? sessionsByIds.all(ctx, live.map((r) => r.currentSessionId)) : Promise.resolve([]),
    new LiveRooms(ctx.services).occupancy(live.map((r) => r.id)),
  ]);
  const byId = new Map(sessions.map((s) => [s.id, s]));
  return rooms.map((room) => ({
    room,
    occupancy: occupancy.get(room.id) ?? 0,
    session: (room.currentSessionId && byId.get(room.currentSessionId)) || null,
  }));
}
