import { LockMode } from '@mikro-orm/core';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import { VrRoom } from '../../../entities/vr/room';

// Lean statements (docs/database-path.md): one prepared statement serves every combination of filters.
export const roomsPage = lean(VrRoom, {
  where:
    '($1::text is null or status = $1) and ($2::text is null or simulation = $2) and ($3::uuid is null or id > $3)',
  orderBy: 'id asc',
  limitParam: '$4',
});
export const roomById = lean(VrRoom, { where: 'id = $1' });

/** What a headset is shown of a room. */
export const shownToHeadsets = ['id', 'name', 'simulation', 'simulationSteps', 'mode', 'capacity'] as const;

// Headsets poll this list, so the rooms and their running sessions come in one round trip (the session joined
// in, of the same tenant), with only the columns a headset is shown.
export const openRoomsAssignedTo = lean(VrRoom, {
  columns: shownToHeadsets,
  join: 'left join vr_sessions s on s.id = vr_rooms.current_session_id and s.tenant_id = vr_rooms.tenant_id',
  where: `vr_rooms.status = 'open' and vr_rooms.participant_ids @> array[$1::uuid]`,
  orderBy: 'vr_rooms.name asc, vr_rooms.id asc',
  limit: 500,
  extra: { sessionId: 's.id', sessionHostUserId: 's.host_user_id', sessionStartedAt: 's.started_at' },
});

/** The room in the em's organisation, or null; `lock` takes its row lock (inside a transaction). */
export function roomRow(em: Em, id: string, options: { lock?: boolean } = {}): Promise<VrRoom | null> {
  return em.findOne(VrRoom, { id }, options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
}

/** Serialises room creations of the organisation until the transaction ends (advisory lock). */
export async function lockRoomCreation(em: Em, tenantId: string): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(hashtext(?))', [`vr_rooms:${tenantId}`]);
}

/** Rooms of the em's organisation. */
export function countRooms(em: Em): Promise<number> {
  return em.count(VrRoom, {});
}
