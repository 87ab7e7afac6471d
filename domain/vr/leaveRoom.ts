import { VrParticipant, VrSession } from '../../entities/vr/session';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { LiveRooms } from './live';
import { findRoom } from './lookup';
import { announceSessionEnd, endSession } from './sessionEnd';

/**
 * The caller leaves the room's running session. The host leaving ends the session (reason host_left, every
 * participant leaves with them); anyone else leaving is a departure. 409 not_joined if not present.
 */
export async function leaveRoom(ctx: TenantContext, roomId: string): Promise<{ sessionId: string; sessionEnded: boolean }> {
  const userId = ctx.userId!;
  const result = await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, roomId, { lock: true });
    const session = room.currentSessionId ? await em.findOne(VrSession, { id: room.currentSessionId, status: 'running' }) : null;
    const participant = session ? await em.findOne(VrParticipant, { sessionId: session.id, userId, joinedAt: { $ne: null }, leftAt: null }) : null;
    if (!session || !participant) throw conflict('not_joined', 'You are not a present participant of a session in this room');
    if (session.hostUserId === userId) return { session, present: await endSession(em, room, session, 'host_left') };
    participant.leftAt = new Date();
    return { session, present: null };
  });
  const { session, present } = result;
  if (present) {
    await announceSessionEnd(ctx.services, session, present);
    return { sessionId: session.id, sessionEnded: true };
  }
  await new LiveRooms(ctx.services).depart(roomId, session.id, userId);
  await notifyHub(ctx.services, [{ event: 'participant.departed', tenantId: ctx.tenantId, roomId, sessionId: session.id, userId, data: { reason: 'left' } }]);
  return { sessionId: session.id, sessionEnded: false };
}
