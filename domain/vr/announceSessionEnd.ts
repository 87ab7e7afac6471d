import type { VrSession } from '../../entities/vr/session';
import type { Services } from '../services';
import { notifyHub } from './hub';
import { LiveRooms } from './store/liveRooms';
import { SessionGate } from './store/sessionGate';

/** After the end committed: the room's live state goes, telemetry gets its grace period, the hub hears it. */
export async function announceSessionEnd(services: Services, session: VrSession, present: string[]): Promise<void> {
  await new LiveRooms(services).endSession(session.tenantId, session.roomId, session.id);
  await new SessionGate(services).ended(session.tenantId, session.id);
  const durationSeconds = session.endedAt
    ? Math.round((session.endedAt.getTime() - session.startedAt.getTime()) / 1000)
    : null;
  await notifyHub(services, [
    {
      event: 'session.ended',
      tenantId: session.tenantId,
      roomId: session.roomId,
      sessionId: session.id,
      userId: session.hostUserId,
      data: { reason: session.endReason, durationSeconds, participants: present },
    },
  ]);
}
