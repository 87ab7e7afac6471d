import type { VrRoom } from '../../entities/vr/room';
import { rawDate, type LeanRow } from '../../lib/lean';
import type { TenantContext } from '../context';
import { LiveRooms } from './store/liveRooms';
import { openRoomsAssignedTo, shownToHeadsets } from './store/rooms';

/** The running session of a room, as a headset needs it to join. */
export interface RuntimeSession {
  id: string;
  hostUserId: string;
  startedAt: Date;
}

export interface RuntimeRoom {
  room: LeanRow<VrRoom, never, (typeof shownToHeadsets)[number]>;
  /** Participants present now. */
  occupancy: number;
  session: RuntimeSession | null;
}

/** The open rooms assigned to the caller (what a headset offers to host or join), with live occupancy. */
export async function listRuntimeRooms(ctx: TenantContext): Promise<RuntimeRoom[]> {
  const rows = await openRoomsAssignedTo.all(ctx, ctx.userId!);
  const occupancy = await new LiveRooms(ctx.services).occupancy(rows.filter((r) => r.sessionId).map((r) => r.id));
  return rows.map(({ sessionId, sessionHostUserId, sessionStartedAt, ...room }) => ({
    room,
    occupancy: occupancy.get(room.id) ?? 0,
    session: sessionId
      ? { id: sessionId as string, hostUserId: sessionHostUserId as string, startedAt: rawDate(sessionStartedAt) }
      : null,
  }));
}
