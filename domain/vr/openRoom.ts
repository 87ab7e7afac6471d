import type { VrRoom } from '../../entities/vr/room';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { notifyHub } from './hub';
import { findRoom } from './lookup';

/** Opens a room: its assigned participants see it and may host it. Opening an open room changes nothing. */
export async function openRoom(ctx: TenantContext, id: string): Promise<VrRoom> {
  const { room, changed } = await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, id, { lock: true });
    if (room.status === 'open') return { room, changed: false };
    room.status = 'open';
    room.openedAt = new Date();
    audit(em, {
      action: 'vr.room.opened',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'vr_room',
      targetId: room.id,
    });
    return { room, changed: true };
  });
  if (changed)
    await notifyHub(ctx.services, [
      {
        event: 'room.opened',
        tenantId: ctx.tenantId,
        roomId: room.id,
        data: { name: room.name, simulation: room.simulation },
      },
    ]);
  return room;
}
