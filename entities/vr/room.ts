import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const roomModes = ['solo', 'multiplayer', 'instructor_led'] as const;
export type RoomMode = (typeof roomModes)[number];

export const roomStatuses = ['open', 'closed'] as const;
export type RoomStatus = (typeof roomStatuses)[number];

/**
 * A place where a simulation is run by headsets. Only an open room is visible to headsets, and only to
 * the users assigned to it. At most one session runs in a room at a time (`currentSessionId`).
 */
export const VrRoom = defineEntity({
  name: 'VrRoom',
  tableName: 'vr_rooms',
  filters: tenantFilter,
  // GIN: "open rooms assigned to me" is an array containment query.
  indexes: [
    { properties: ['tenantId', 'status'] },
    {
      name: 'vr_rooms_participant_ids_gin',
      expression: 'create index "vr_rooms_participant_ids_gin" on "vr_rooms" using gin ("participant_ids")',
    },
  ],
  properties: {
    ...tenantColumns(),
    name: p.string().length(120),
    /** Key of the simulation the headsets load. */
    simulation: p.string().length(80),
    /** Number of distinct steps of the simulation; progress is steps passed / this. */
    simulationSteps: p.integer(),
    capacity: p.integer(),
    mode: p.enum([...roomModes]),
    /** Users assigned to the room (members of the organisation). */
    participantIds: p.array().columnType('uuid[]').default([]),
    status: p.enum([...roomStatuses]).default('closed'),
    /** The running session, null when none runs. */
    currentSessionId: p.uuid().nullable(),
    openedAt: p.datetime().nullable(),
    closedAt: p.datetime().nullable(),
    updatedAt: updatedAt(),
  },
});
export type VrRoom = InferEntity<typeof VrRoom>;
