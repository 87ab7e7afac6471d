import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { LiveRooms } from './store/liveRooms';
import { findRoom } from './lookup';
import { presentParticipant, runningSession } from './store/sessions';
import { announceSessionEnd } from './announceSessionEnd';
import { endSession } from './endSession';

const notJoined = (expired = false) =>
  conflict(
    'not_joined',
    expired
      ? 'Your presence in this room had expired: that was your departure'
      : 'You are not a present participant of a session in this room',
  );

/**
 * The caller leaves the room's running session. The host leaving ends the session (reason host_left, every
 * participant leaves with them); anyone else leaving is a departure. 409 not_joined if not present, also when
 * the caller's presence has expired (whether or not the sweep recorded it yet): that expiry was their
 * departure, recorded now at the time of the expiry (reason timeout; the host's ends the session with
 * host_timeout), as the sweep would.
 */
export async function leaveRoom(
  ctx: TenantContext,
  roomId: string,
): Promise<{ sessionId: string; sessionEnded: boolean }> {
  const userId = ctx.userId!;
  const live = new LiveRooms(ctx.services);
  const result = await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, roomId, { lock: true });
    const session = room.currentSessionId ? await runningSession(em, room.currentSessionId) : null;
    const participant = session ? await presentParticipant(em, session.id, userId) : null;
    if (!session || !participant) throw notJoined();
    const isHost = session.hostUserId === userId;
    const presence = await live.presenceOf(roomId, session.id, userId);
    const timedOut = presence.state === 'expired';
    if (isHost)
      return {
        session,
        timedOut,
        present: await endSession(
          em,
          room,
          session,
          timedOut ? 'host_timeout' : 'host_left',
          timedOut ? presence.at : undefined,
        ),
      };
    participant.leftAt = timedOut ? presence.at : new Date();
    return { session, timedOut, present: null };
  });
  const { session, timedOut, present } = result;
  if (present) {
    await announceSessionEnd(ctx.services, session, present);
    if (timedOut) throw notJoined(true);
    return { sessionId: session.id, sessionEnded: true };
  }
  // An expired presence stays in Redis: the sweep claims it and finds the departure recorded (no second note).
  if (!timedOut) await live.depart(roomId, session.id, userId);
  await notifyHub(ctx.services, [
    {
      event: 'participant.departed',
      tenantId: ctx.tenantId,
      roomId,
      sessionId: session.id,
      userId,
      data: { reason: timedOut ? 'timeout' : 'left' },
    },
  ]);
  if (timedOut) throw notJoined(true);
  return { sessionId: session.id, sessionEnded: false };
}
