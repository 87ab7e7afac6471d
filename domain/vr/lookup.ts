import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import type { VrRoom } from '../../entities/vr/room';
import { roomRow } from './store/rooms';

/** The room in the em's organisation, or 404. `lock` takes its row lock (inside a transaction): room state changes serialise on it. */
export async function findRoom(em: Em, id: string, options: { lock?: boolean } = {}): Promise<VrRoom> {
  const room = await roomRow(em, id, options);
  if (!room) throw notFound('Room');
  return room;
}
