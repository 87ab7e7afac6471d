import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../lib/db';
import { notFound } from '../../lib/errors';
import { VrRoom } from '../../entities/vr/room';

/** The room in the em's organisation, or 404. `lock` takes its row lock (inside a transaction): room state changes serialise on it. */
export async function findRoom(em: Em, id: string, options: { lock?: boolean } = {}): Promise<VrRoom> {
  const room = await em.findOne(VrRoom, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!room) throw notFound('Room');
  return room;
}
