import type { Em } from '../../lib/db';
import type { VrRoom } from '../../entities/vr/room';
import type { SessionEndReason, VrSession } from '../../entities/vr/session';
import { emitEvent } from '../webhooks/emitEvent';
import { vrSessionData } from '../webhooks/payloads';
import { markAllLeft, presentUserIds } from './store/sessions';

/**
 * Ends a running session in the caller's transaction, the room row already locked: the session gets its
 * end, every present participant leaves, the room has no session any more. Returns who was present.
 * The session row is written before the participants (the telemetry worker locks in that order too).
 * Emits `vr.session.completed` in that transaction (every way a session ends comes here).
 */
export async function endSession(
  em: Em,
  room: VrRoom | null,
  session: VrSession,
  reason: SessionEndReason,
  now = new Date(),
): Promise<string[]> {
  session.status = 'ended';
  session.endedAt = now;
  session.endReason = reason;
  if (room?.currentSessionId === session.id) room.currentSessionId = null;
  await em.flush();
  const present = await presentUserIds(em, session.id);
  await markAllLeft(em, session.id, now);
  emitEvent(em, session.tenantId, 'vr.session.completed', vrSessionData(session, reason, now, present.length));
  return present;
}
