import type { VrRoom } from '../../entities/vr/room';
import { VrSession } from '../../entities/vr/session';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { findRoom } from './lookup';
import { announceSessionEnd } from './announceSessionEnd';
import { endSession } from './endSession';

/**
 * Closes a room: a running session ends (reason room_closed) and everyone present leaves; headsets no
 * longer see the room. Closing a closed room changes nothing.
 */
export async function closeRoom(ctx: TenantContext, id: string): Promise<VrRoom> {
  const result = await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, id, { lock: true });
    if (room.status === 'closed') return { room, changed: false, ended: null };
    const current = room.currentSessionId ? await em.findOne(VrSession, { id: room.currentSessionId }) : null;
    const running = current?.status === 'running' ? current : null;
    const present = running ? await endSession(em, room, running, 'room_closed') : [];
    room.status = 'closed';
    room.closedAt = new Date();
    room.currentSessionId = null;
    audit(em, {
      action: 'vr.room.closed',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'vr_room',
      targetId: room.id,
      data: { endedSessionId: running?.id ?? null },
    });
    return { room, changed: true, ended: running ? { session: running, present } : null };
  });
  if (!result.changed) return result.room;
  if (result.ended) await announceSessionEnd(ctx.services, result.ended.session, result.ended.present);
  await notifyHub(ctx.services, [
    { event: 'room.closed', tenantId: ctx.tenantId, roomId: result.room.id, data: { name: result.room.name } },
  ]);
  return result.room;
}
