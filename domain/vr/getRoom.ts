import type { VrRoom } from '../../entities/vr/room';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { roomById } from './store/rooms';

/** A room of the organisation, or 404 (a read: no EntityManager). */
export async function getRoom(ctx: TenantContext, id: string): Promise<Lean<VrRoom>> {
  return roomById.byId('Room', ctx, id);
}
