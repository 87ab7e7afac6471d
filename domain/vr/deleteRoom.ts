import { conflict } from '../../lib/errors';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { findRoom } from './lookup';

/**
 * Deletes a room. Refused while a session runs (409 session_running: close the room first, which ends it).
 * Its sessions and their reports are kept: they carry the room's id and name.
 */
export async function deleteRoom(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const room = await findRoom(em, id, { lock: true });
    if (room.currentSessionId) throw conflict('session_running', 'A session runs in this room; close the room first');
    audit(em, {
      action: 'vr.room.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'vr_room',
      targetId: room.id,
      data: { name: room.name },
    });
    em.remove(room);
  });
}
