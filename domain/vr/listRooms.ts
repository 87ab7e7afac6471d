import { VrRoom, type RoomStatus } from '../../entities/vr/room';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { toPage, type Page } from '../../lib/pagination';

export interface ListRoomsProps {
  status?: RoomStatus;
  simulation?: string;
  limit: number;
  /** Id of the last room of the previous page. */
  cursor?: string;
}

// Lean statements (docs/database-path.md): one prepared statement serves every combination of filters.
const roomsPage = lean(VrRoom, {
  where: '($1::text is null or status = $1) and ($2::text is null or simulation = $2) and ($3::uuid is null or id > $3)',
  orderBy: 'id asc',
  limitParam: '$4',
});
const roomById = lean(VrRoom, { where: 'id = $1' });

/** The organisation's rooms, oldest first. */
export async function listRooms(ctx: TenantContext, props: ListRoomsProps): Promise<Page<Lean<VrRoom>>> {
  return toPage(await roomsPage.all(ctx, props.status ?? null, props.simulation ?? null, props.cursor ?? null, props.limit + 1), props.limit);
}

/** A room of the organisation, or 404 (a read: no EntityManager). */
export async function getRoom(ctx: TenantContext, id: string): Promise<Lean<VrRoom>> {
  return roomById.byId('Room', ctx, id);
}
