import { VrRoom, type RoomMode } from '../../entities/vr/room';
import { conflict } from '../../lib/errors';
import { audit } from '../platform/audit';
import type { TenantContext } from '../context';
import { checkAssignees } from './assignees';
import { capacityFor } from './roomRules';
import { countRooms, lockRoomCreation } from './store/rooms';

export interface CreateRoomProps {
  name: string;
  /** Key of the simulation the headsets load. */
  simulation: string;
  /** Number of distinct steps of the simulation (progress = steps passed / this). */
  simulationSteps: number;
  mode: RoomMode;
  /** Participants at once; 1 for solo rooms, 8 by default otherwise. */
  capacity?: number;
  /** Members of the organisation who may host or join. */
  participantIds?: string[];
}

/**
 * Creates a room, closed: no headset sees it until it is opened. The organisation's tier may cap its
 * number of rooms (entitlement limit vrRooms; 409 room_limit_reached). A tier without the vr module has
 * no such limit to give (0), so an organisation holding vr through a trial or an add-on is not capped.
 */
export async function createRoom(ctx: TenantContext, props: CreateRoomProps): Promise<VrRoom> {
  const { limits } = await ctx.services.entitlements.get(ctx.tenantId);
  const participantIds = await checkAssignees(ctx.em, props.participantIds ?? []);
  const capacity = capacityFor(props.mode, props.capacity);
  return ctx.em.transactional(async (em) => {
    const limit = limits.vrRooms ?? 0;
    if (limit > 0) {
      // Serialises room creations of the organisation, so concurrent ones cannot pass the limit together.
      await lockRoomCreation(em, ctx.tenantId);
      if ((await countRooms(em)) >= limit)
        throw conflict(
          'room_limit_reached',
          `The plan of this organisation allows ${limit} rooms; delete one or upgrade`,
        );
    }
    const room = em.create(VrRoom, {
      tenantId: ctx.tenantId,
      name: props.name.trim(),
      simulation: props.simulation,
      simulationSteps: props.simulationSteps,
      mode: props.mode,
      capacity,
      participantIds,
      status: 'closed',
    });
    audit(em, {
      action: 'vr.room.created',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'vr_room',
      targetId: room.id,
    });
    return room;
  });
}
