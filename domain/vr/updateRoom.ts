import type { RoomMode, VrRoom } from '../../entities/vr/room';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { checkAssignees } from './assignees';
import { findRoom } from './lookup';
import { capacityFor } from './roomRules';

export interface UpdateRoomProps {
  name?: string;
  simulation?: string;
  simulationSteps?: number;
  mode?: RoomMode;
  capacity?: number;
  /** Replaces the assigned participants. */
  participantIds?: string[];
}

/**
 * Edits a room, also while a session runs: the session keeps the simulation it started with, a lower
 * capacity only limits later joins, and an unassigned participant who is present stays until they leave.
 */
export async function updateRoom(ctx: TenantContext, id: string, props: UpdateRoomProps): Promise<VrRoom> {
  const room = await findRoom(ctx.em, id);
  if (props.name !== undefined) room.name = props.name.trim();
  if (props.simulation !== undefined) room.simulation = props.simulation;
  if (props.simulationSteps !== undefined) room.simulationSteps = props.simulationSteps;
  if (props.mode !== undefined || props.capacity !== undefined) {
    // A room leaving or entering solo mode gets that mode's default unless a capacity is given.
    const modeChanged = props.mode !== undefined && props.mode !== room.mode;
    room.mode = props.mode ?? room.mode;
    room.capacity = capacityFor(room.mode, props.capacity ?? (modeChanged ? undefined : room.capacity));
  }
  if (props.participantIds !== undefined) room.participantIds = await checkAssignees(ctx.em, props.participantIds);
  audit(ctx.em, {
    action: 'vr.room.updated',
    actorId: ctx.userId,
    tenantId: ctx.tenantId,
    targetType: 'vr_room',
    targetId: room.id,
    data: { fields: Object.keys(props) },
  });
  await ctx.em.flush();
  return room;
}
