import type { Em } from '../../lib/db';
import type { VrRoom } from '../../entities/vr/room';
import { VrParticipant, VrSession, type SessionEndReason } from '../../entities/vr/session';
import type { Services } from '../services';
import { notifyHub } from './hub';
import { LiveRooms } from './store/liveRooms';
import { SessionGate } from './store/sessionGate';

/**
 * Ends a running session in the caller's transaction, the room row already locked: the session gets its
 * end, every present participant leaves, the room has no session any more. Returns who was present.
 * The session row is written before the participants (the telemetry worker locks in that order too).
 */
export async function endSession(em: Em, room: VrRoom | null, session: VrSession, reason: SessionEndReason, now = new Date()): Promise<string[]> {
  session.status = 'ended';
  session.endedAt = now;
  session.endReason = reason;
  if (room?.currentSessionId === session.id) room.currentSessionId = null;
  await em.flush();
  const present = await em.find(VrParticipant, { sessionId: session.id, joinedAt: { $ne: null }, leftAt: null }, { fields: ['userId'] });
  await em.nativeUpdate(VrParticipant, { sessionId: session.id, joinedAt: { $ne: null }, leftAt: null }, { leftAt: now });
  return present.map((p) => p.userId);
}

/** After the end committed: the room's live state goes, telemetry gets its grace period, the hub hears it. */
export async function announceSessionEnd(services: Services, session: VrSession, present: string[]): Promise<void> {
  await new LiveRooms(services).endSession(session.tenantId, session.roomId, session.id);
  await new SessionGate(services).ended(session.tenantId, session.id);
  const durationSeconds = session.endedAt ? Math.round((session.endedAt.getTime() - session.startedAt.getTime()) / 1000) : null;
  await notifyHub(services, [
    { event: 'session.ended', tenantId: session.tenantId, roomId: session.roomId, sessionId: session.id, userId: session.hostUserId, data: { reason: session.endReason, durationSeconds, participants: present } },
  ]);
}
