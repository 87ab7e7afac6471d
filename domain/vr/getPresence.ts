import type { TenantContext } from '../context';
import { LiveRooms, type PresenceRecord } from './store/liveRooms';
import { findRoom } from './lookup';

/** Who is present in a room now (unexpired presence of its running session). */
export async function getPresence(
  ctx: TenantContext,
  roomId: string,
): Promise<{ sessionId: string | null; participants: PresenceRecord[] }> {
  const room = await findRoom(ctx.em, roomId);
  if (!room.currentSessionId) return { sessionId: null, participants: [] };
  return { sessionId: room.currentSessionId, participants: await new LiveRooms(ctx.services).presence(roomId) };
}
