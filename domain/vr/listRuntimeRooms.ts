import { VrRoom } from '../../entities/vr/room';
import { VrSession } from '../../entities/vr/session';
import type { TenantContext } from '../context';
import { LiveRooms } from './live';

export interface RuntimeRoom {
  room: VrRoom;
  /** Participants present now. */
  occupancy: number;
  session: VrSession | null;
}

/** The open rooms assigned to the caller (what a headset offers to host or join), with live occupancy. */
export async function listRuntimeRooms(ctx: TenantContext): Promise<RuntimeRoom[]> {
  const rooms = await ctx.em.find(VrRoom, { status: 'open', participantIds: { $contains: [ctx.userId!] } }, { orderBy: { name: 'asc', id: 'asc' }, limit: 500 });
  const sessionIds = rooms.map((r) => r.currentSessionId).filter((id): id is string => !!id);
  const [sessions, occupancy] = await Promise.all([
    sessionIds.length ? ctx.em.find(VrSession, { id: { $in: sessionIds } }) : Promise.resolve([]),
    new LiveRooms(ctx.services).occupancy(rooms.filter((r) => r.currentSessionId).map((r) => r.id)),
  ]);
  const byId = new Map(sessions.map((s) => [s.id, s]));
  return rooms.map((room) => ({
    room,
    occupancy: occupancy.get(room.id) ?? 0,
    session: (room.currentSessionId && byId.get(room.currentSessionId)) || null,
  }));
}
