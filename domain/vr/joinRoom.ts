import { VrParticipant, VrSession } from '../../entities/vr/session';
import { newId } from '../../entities/base';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { LiveRooms } from './live';
import { findRoom } from './lookup';
import { checkMayTakePart, displayNameOf } from './participation';

/**
 * An assigned participant joins the session running in an open room. Capacity counts the participants
 * present (host included): 409 room_full beyond it. Joining again while present changes nothing
 * (`arrived: false`); joining after leaving returns to the same session record. Joining after one's
 * presence expired, before the sweep recorded that departure, records it now: a departure, then a new arrival.
 */
export async function joinRoom(ctx: TenantContext, roomId: string): Promise<{ session: VrSession; arrived: boolean }> {
  const userId = ctx.userId!;
  const result = await ctx.em.transactional(async (em) => {
    // The room lock serialises joins, so two of them cannot both take the last place.
    const room = await findRoom(em, roomId, { lock: true });
    if (room.status !== 'open') throw conflict('room_closed', 'This room is closed');
    await checkMayTakePart(ctx, room, 'participant');
    const session = room.currentSessionId ? await em.findOne(VrSession, { id: room.currentSessionId, status: 'running' }) : null;
    if (!session) throw conflict('no_running_session', 'No session runs in this room; host it first');
    const displayName = await displayNameOf(em, userId);
    const live = { tenantId: ctx.tenantId, roomId, sessionId: session.id, hostUserId: session.hostUserId, userId, displayName };
    const present = await em.find(VrParticipant, { sessionId: session.id, joinedAt: { $ne: null }, leftAt: null }, { fields: ['userId'] });
    let expired = false;
    if (present.some((p) => p.userId === userId)) {
      expired = (await new LiveRooms(ctx.services).presenceOf(roomId, session.id, userId)).state === 'expired';
      // Presence is refreshed under the room lock: an expiry being recorded concurrently then sees them back.
      if (!expired) {
        await new LiveRooms(ctx.services).arrive(live);
        return { session, arrived: false, expired, displayName };
      }
    } else if (present.length >= room.capacity) {
      throw conflict('room_full', `This room holds ${room.capacity} participant(s) and is full`);
    }
    // The telemetry worker may have created the row already (events sent before the join): upsert.
    await em.execute(
      `insert into vr_session_participants (id, tenant_id, created_at, session_id, user_id, display_name, is_host, joined_at)
       values (?, ?, now(), ?, ?, ?, false, now())
       on conflict (session_id, user_id) do update set display_name = excluded.display_name, left_at = null,
         joined_at = coalesce(vr_session_participants.joined_at, excluded.joined_at)`,
      [newId(), ctx.tenantId, session.id, userId, displayName],
    );
    await new LiveRooms(ctx.services).arrive(live);
    return { session, arrived: true, expired, displayName };
  });
  const { session, arrived, expired, displayName } = result;
  const arrival = { event: 'participant.arrived' as const, tenantId: ctx.tenantId, roomId, sessionId: session.id, userId, data: { displayName } };
  if (expired) await notifyHub(ctx.services, [{ ...arrival, event: 'participant.departed', data: { reason: 'timeout' } }, arrival]);
  else if (arrived) await notifyHub(ctx.services, [arrival]);
  return { session, arrived };
}
