import type { VrSession } from '../../entities/vr/session';
import { newId } from '../../entities/base';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notifyHub, type HubNote } from './hub';
import { LiveRooms } from './store/liveRooms';
import { findRoom } from './lookup';
import { checkMayTakePart, displayNameOf } from './participation';
import { announceSessionEnd } from './announceSessionEnd';
import { endSession } from './endSession';
import { markLeft, presentUserIds, runningSession, upsertJoined } from './store/sessions';

const noRunningSession = () => conflict('no_running_session', 'No session runs in this room; host it first');

/**
 * An assigned participant joins the session running in an open room. A session whose host's presence has
 * expired is no longer running: that expiry ended it (host_timeout, at the expiry), whether or not the sweep
 * recorded it yet; the join records that end and answers 409 no_running_session. Capacity counts the
 * participants present (host included): 409 room_full beyond it. Present means unexpired: an expiry the sweep
 * has not recorded yet is recorded here (a departure at the expiry, reason timeout) when the room looks full.
 * Joining again while present changes nothing (`arrived: false`); joining after leaving returns to the same
 * session record. Joining after one's presence expired, before the sweep recorded that departure, records it
 * now: a departure, then a new arrival.
 */
export async function joinRoom(ctx: TenantContext, roomId: string): Promise<{ session: VrSession; arrived: boolean }> {
  const userId = ctx.userId!;
  const live = new LiveRooms(ctx.services);
  const result = await ctx.em.transactional(async (em) => {
    // The room lock serialises joins, so two of them cannot both take the last place.
    const room = await findRoom(em, roomId, { lock: true });
    if (room.status !== 'open') throw conflict('room_closed', 'This room is closed');
    await checkMayTakePart(ctx, room, 'participant');
    const session = room.currentSessionId ? await runningSession(em, room.currentSessionId) : null;
    if (!session) throw noRunningSession();
    // The host's presence and the caller's, in one round trip.
    const presence = await live.presenceOfMany(roomId, session.id, [session.hostUserId, userId]);
    const host = presence.get(session.hostUserId)!;
    if (host.state === 'expired')
      return { kind: 'ended' as const, session, present: await endSession(em, room, session, 'host_timeout', host.at) };
    const displayName = await displayNameOf(em, userId);
    const arrival = {
      tenantId: ctx.tenantId,
      roomId,
      sessionId: session.id,
      hostUserId: session.hostUserId,
      userId,
      displayName,
    };
    const present = await presentUserIds(em, session.id);
    let expired = false;
    const timedOut: string[] = [];
    if (present.includes(userId)) {
      expired = presence.get(userId)!.state === 'expired';
      // Presence is refreshed under the room lock: an expiry being recorded concurrently then sees them back.
      if (!expired) {
        await live.arrive(arrival);
        return { kind: 'joined' as const, session, arrived: false, expired, displayName, timedOut };
      }
    } else if (present.length >= room.capacity) {
      // Full on the record: the seats of expiries not recorded yet are free (their departures are owed).
      for (const [other, state] of await live.presenceOfMany(roomId, session.id, present)) {
        if (state.state !== 'expired') continue;
        await markLeft(em, session.id, other, state.at);
        timedOut.push(other);
      }
      if (present.length - timedOut.length >= room.capacity)
        throw conflict('room_full', `This room holds ${room.capacity} participant(s) and is full`);
    }
    await upsertJoined(em, { id: newId(), tenantId: ctx.tenantId, sessionId: session.id, userId, displayName });
    await live.arrive(arrival);
    return { kind: 'joined' as const, session, arrived: true, expired, displayName, timedOut };
  });
  if (result.kind === 'ended') {
    await announceSessionEnd(ctx.services, result.session, result.present);
    throw noRunningSession();
  }
  const { session, arrived, expired, displayName, timedOut } = result;
  const note = (who: string): Omit<HubNote, 'event'> => ({
    tenantId: ctx.tenantId,
    roomId,
    sessionId: session.id,
    userId: who,
  });
  const notes: HubNote[] = [];
  // Their expired presence stays in Redis: the sweep claims it and finds the departure recorded (no second note).
  for (const other of timedOut)
    notes.push({ ...note(other), event: 'participant.departed', data: { reason: 'timeout' } });
  if (expired) notes.push({ ...note(userId), event: 'participant.departed', data: { reason: 'timeout' } });
  if (arrived) notes.push({ ...note(userId), event: 'participant.arrived', data: { displayName } });
  await notifyHub(ctx.services, notes);
  return { session, arrived };
}
