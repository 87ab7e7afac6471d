import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';
import { TELEMETRY_LABEL_LENGTH } from './telemetry';

export const sessionStatuses = ['running', 'ended'] as const;
export type SessionStatus = (typeof sessionStatuses)[number];

/** Why a session ended: its host left, the host's presence expired, or an administrator closed the room. */
export const sessionEndReasons = ['host_left', 'host_timeout', 'room_closed'] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];

/**
 * One run of a simulation in a room (history is kept, also after the room is deleted: room name, simulation
 * and step count are snapshots). Per-participant progress lives in VrParticipant.
 */
export const VrSession = defineEntity({
  name: 'VrSession',
  tableName: 'vr_sessions',
  filters: tenantFilter,
  indexes: [{ properties: ['tenantId', 'startedAt'] }, { properties: ['tenantId', 'roomId', 'startedAt'] }],
  // The database refuses a second running session in a room, whatever races the application loses.
  uniques: [
    {
      name: 'vr_sessions_one_running_per_room',
      expression: `create unique index "vr_sessions_one_running_per_room" on "vr_sessions" ("room_id") where "status" = 'running'`,
    },
  ],
  properties: {
    ...tenantColumns(),
    roomId: p.uuid(),
    roomName: p.string().length(120),
    simulation: p.string().length(80),
    simulationSteps: p.integer(),
    hostUserId: p.uuid(),
    status: p.enum([...sessionStatuses]).default('running'),
    startedAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    endReason: p.enum([...sessionEndReasons]).nullable(),
    /** Telemetry events applied (incremented by the telemetry worker). */
    eventsCount: p.bigint('number').default(0),
    lastEventAt: p.datetime().nullable(),
  },
});
export type VrSession = InferEntity<typeof VrSession>;

/**
 * A user's part in a session: presence history (joined/left) and progress aggregates fed by telemetry.
 * A user who only appears in telemetry has no joinedAt: the sender of their own events, or a simulated trainee
 * of an instructor's headset (any id that is not a member of the organisation). Telemetry never names a member
 * who did not host or join the session (refused at the edge, dropped by the worker: domain/vr/ingestTelemetry.ts).
 */
export const VrParticipant = defineEntity({
  name: 'VrParticipant',
  tableName: 'vr_session_participants',
  filters: tenantFilter,
  uniques: [{ properties: ['sessionId', 'userId'] }],
  properties: {
    ...tenantColumns(),
    sessionId: p.uuid(),
    userId: p.uuid(),
    displayName: p.string().length(120).nullable(),
    isHost: p.boolean().default(false),
    joinedAt: p.datetime().nullable(),
    leftAt: p.datetime().nullable(),
    /** Distinct step_passed labels. */
    stepsPassed: p.integer().default(0),
    /** Label of the latest step_passed event. */
    lastStep: p.string().length(TELEMETRY_LABEL_LENGTH).nullable(),
    eventsCount: p.integer().default(0),
    completedAt: p.datetime().nullable(),
  },
});
export type VrParticipant = InferEntity<typeof VrParticipant>;
