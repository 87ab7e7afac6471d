import type { RoomStatus, VrRoom } from '../../entities/vr/room';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { toPage, type Page } from '../../lib/pagination';
import { roomsPage } from './store/rooms';

export interface ListRoomsProps {
  status?: RoomStatus;
  simulation?: string;
  limit: number;
  /** Id of the last room of the previous page. */
  cursor?: string;
}

/** The organisation's rooms, oldest first. */
export async function listRooms(ctx: TenantContext, props: ListRoomsProps): Promise<Page<Lean<VrRoom>>> {
  return toPage(
    await roomsPage.all(ctx, props.status ?? null, props.simulation ?? null, props.cursor ?? null, props.limit + 1),
    props.limit,
  );
}
