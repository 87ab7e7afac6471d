import { VrParticipant, VrSession } from '../../entities/vr/session';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { LiveRooms } from './store/liveRooms';
import { findRoom } from './lookup';
import { checkMayTakePart, displayNameOf } from './participation';
import { announceSessionEnd } from './announceSessionEnd';
import { endSession } from './endSession';
import { SessionGate } from './store/sessionGate';

/**
 * The first participant to host an open room starts a session and is present in it. While a session runs
 * a second host is refused (409 session_already_running), except the host themself retrying: they get
 * their running session back (`started: false`). A session whose host's presence has expired is no longer
 * running: that expiry ended it (host_timeout, at the expiry) whether or not the sweep recorded it yet, so
 * hosting (by its host or anyone else) records that end and starts a new session. The participant's name is
 * the account's until their headset's heartbeats give one.
 *
 * The start is announced (telemetry gate, hub) after the commit, unless the session ended in between (the
 * room closed, the host left): the gate then keeps its end and the hub never hears the start after the end.
 */
export async function hostRoom(ctx: TenantContext, roomId: string): Promise<{ session: VrSession; started: boolean }> {
  const userId = ctx.userId!;
  const result = await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, roomId, { lock: true });
    if (room.status !== 'open') throw conflict('room_closed', 'This room is closed');
    await checkMayTakePart(ctx, room, 'host');
    const displayName = await displayNameOf(em, userId);
    const live = new LiveRooms(ctx.services);
    let timedOut: { session: VrSession; present: string[] } | null = null;
    if (room.currentSessionId) {
      const running = await em.findOneOrFail(VrSession, { id: room.currentSessionId });
      const host = await live.presenceOf(roomId, running.id, running.hostUserId);
      if (host.state !== 'expired') {
        if (running.hostUserId !== userId)
          throw conflict('session_already_running', 'A session already runs in this room; join it instead');
        // Presence is written under the room lock (as joins do): an expiry being recorded meanwhile sees the host back.
        await live.arrive({
          tenantId: ctx.tenantId,
          roomId,
          sessionId: running.id,
          hostUserId: userId,
          userId,
          displayName,
        });
        return { session: running, started: false, displayName, timedOut };
      }
      timedOut = { session: running, present: await endSession(em, room, running, 'host_timeout', host.at) };
    }
    const now = new Date();
    const session = em.create(VrSession, {
      tenantId: ctx.tenantId,
      roomId: room.id,
      roomName: room.name,
      simulation: room.simulation,
      simulationSteps: room.simulationSteps,
      hostUserId: userId,
      status: 'running',
      startedAt: now,
    });
    em.create(VrParticipant, {
      tenantId: ctx.tenantId,
      sessionId: session.id,
      userId,
      displayName,
      isHost: true,
      joinedAt: now,
    });
    room.currentSessionId = session.id;
    await live.arrive({
      tenantId: ctx.tenantId,
      roomId,
      sessionId: session.id,
      hostUserId: userId,
      userId,
      displayName,
      starts: true,
    });
    return { session, started: true, displayName, timedOut };
  });
  const { session, started, displayName, timedOut } = result;
  if (timedOut) await announceSessionEnd(ctx.services, timedOut.session, timedOut.present);
  if (started && (await new SessionGate(ctx.services).started(ctx.tenantId, session.id))) {
    await notifyHub(ctx.services, [
      {
        event: 'session.started',
        tenantId: ctx.tenantId,
        roomId,
        sessionId: session.id,
        userId,
        data: { simulation: session.simulation, hostUserId: userId, displayName },
      },
    ]);
  }
  return { session, started };
}
