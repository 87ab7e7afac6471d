import type { FilterQuery } from '@mikro-orm/core';
import { VrRoom, type RoomStatus } from '../../entities/vr/room';
import type { TenantContext } from '../context';
import { findRoom } from './lookup';
import { toPage, type Page } from '../../lib/pagination';

export interface ListRoomsProps {
  status?: RoomStatus;
  simulation?: string;
  limit: number;
  /** Id of the last room of the previous page. */
  cursor?: string;
}

/** The organisation's rooms, oldest first. */
export async function listRooms(ctx: TenantContext, props: ListRoomsProps): Promise<Page<VrRoom>> {
  const where: FilterQuery<VrRoom> = {};
  if (props.status) where.status = props.status;
  if (props.simulation) where.simulation = props.simulation;
  if (props.cursor) where.id = { $gt: props.cursor };
  return toPage(await ctx.em.find(VrRoom, where, { orderBy: { id: 'asc' }, limit: props.limit + 1 }), props.limit);
}

export const getRoom = (ctx: TenantContext, id: string) => findRoom(ctx.em, id);
