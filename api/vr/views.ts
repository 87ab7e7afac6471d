import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsNumber, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { roomModes, roomStatuses, type VrRoom } from '../../entities/vr/room';
import { sessionEndReasons, sessionStatuses, type VrParticipant, type VrSession } from '../../entities/vr/session';
import type { PresenceRecord } from '../../domain/vr/store/liveRooms';
import type { RuntimeRoom } from '../../domain/vr/listRuntimeRooms';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { progressOf } from '../../domain/vr/reportRules';
import type { AcceptedBatch } from '../../domain/vr/acceptTelemetry';
import type { HeartbeatResult } from '../../domain/vr/sendHeartbeat';
import { iso, isoTime } from '../http/present';

/** Presenters of the VR routes: what the API shows; the decorators document the shapes in OpenAPI. */

export class RoomView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() simulation!: string;
  @IsInt() simulationSteps!: number;
  @IsInt() capacity!: number;
  @IsIn(roomModes) mode!: string;
  @IsUUID('all', { each: true }) participantIds!: string[];
  @IsIn(roomStatuses) status!: string;
  @JSONSchema({ description: 'The running session, null when none runs' })
  @Nullable()
  @IsUUID()
  currentSessionId!: string | null;
  @Nullable() @IsDateString() openedAt!: string | null;
  @Nullable() @IsDateString() closedAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(r: Lean<VrRoom>): RoomView {
    return {
      id: r.id,
      name: r.name,
      simulation: r.simulation,
      simulationSteps: r.simulationSteps,
      capacity: r.capacity,
      mode: r.mode,
      participantIds: r.participantIds,
      status: r.status,
      currentSessionId: r.currentSessionId ?? null,
      openedAt: iso(r.openedAt),
      closedAt: iso(r.closedAt),
      createdAt: isoTime(r.createdAt),
      updatedAt: isoTime(r.updatedAt),
    };
  }
}

export class RoomPageView {
  @ValidateNested({ each: true }) @Type(() => RoomView) items!: RoomView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<VrRoom>>): RoomPageView {
    return mapPage(page, RoomView.from);
  }
}

export class VrSessionView {
  @IsUUID() id!: string;
  @IsUUID() roomId!: string;
  @JSONSchema({ description: "The room's name when the session started" })
  @IsString()
  roomName!: string;
  @IsString() simulation!: string;
  @IsInt() simulationSteps!: number;
  @IsUUID() hostUserId!: string;
  @IsIn(sessionStatuses) status!: string;
  @IsDateString() startedAt!: string;
  @Nullable() @IsDateString() endedAt!: string | null;
  @JSONSchema({ description: 'host_left, host_timeout (host presence expired) or room_closed' })
  @Nullable()
  @IsIn(sessionEndReasons)
  endReason!: string | null;
  @IsInt() eventsCount!: number;
  @Nullable() @IsDateString() lastEventAt!: string | null;

  static from(s: Lean<VrSession>): VrSessionView {
    return {
      id: s.id,
      roomId: s.roomId,
      roomName: s.roomName,
      simulation: s.simulation,
      simulationSteps: s.simulationSteps,
      hostUserId: s.hostUserId,
      status: s.status,
      startedAt: isoTime(s.startedAt),
      endedAt: iso(s.endedAt),
      endReason: s.endReason ?? null,
      eventsCount: Number(s.eventsCount),
      lastEventAt: iso(s.lastEventAt),
    };
  }
}

export class VrSessionPageView {
  @ValidateNested({ each: true }) @Type(() => VrSessionView) items!: VrSessionView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<VrSession>>): VrSessionPageView {
    return mapPage(page, VrSessionView.from);
  }
}

export class VrParticipantView {
  @IsUUID() userId!: string;
  @Nullable() @IsString() displayName!: string | null;
  @IsBoolean() isHost!: boolean;
  @JSONSchema({ description: 'Null for a participant seen only in telemetry' })
  @Nullable()
  @IsDateString()
  joinedAt!: string | null;
  @Nullable() @IsDateString() leftAt!: string | null;
  @JSONSchema({ description: 'Distinct step_passed labels' })
  @IsInt()
  stepsPassed!: number;
  @JSONSchema({ description: 'stepsPassed / simulationSteps, at most 1' })
  @IsNumber()
  progress!: number;
  @Nullable() @IsString() lastStep!: string | null;
  @IsInt() eventsCount!: number;
  @IsBoolean() completed!: boolean;
  @Nullable() @IsDateString() completedAt!: string | null;

  static from(p: Lean<VrParticipant>, simulationSteps: number): VrParticipantView {
    return {
      userId: p.userId,
      displayName: p.displayName ?? null,
      isHost: p.isHost,
      joinedAt: iso(p.joinedAt),
      leftAt: iso(p.leftAt),
      stepsPassed: p.stepsPassed,
      progress: progressOf(p.stepsPassed, simulationSteps),
      lastStep: p.lastStep ?? null,
      eventsCount: p.eventsCount,
      completed: !!p.completedAt,
      completedAt: iso(p.completedAt),
    };
  }
}

export class VrSessionDetailView extends VrSessionView {
  @ValidateNested({ each: true }) @Type(() => VrParticipantView) participants!: VrParticipantView[];

  static fromDetail({
    session,
    participants,
  }: {
    session: Lean<VrSession>;
    participants: Lean<VrParticipant>[];
  }): VrSessionDetailView {
    return {
      ...VrSessionView.from(session),
      participants: participants.map((p) => VrParticipantView.from(p, session.simulationSteps)),
    };
  }
}

export class RuntimeSessionView {
  @IsUUID() id!: string;
  @IsUUID() hostUserId!: string;
  @IsDateString() startedAt!: string;
}

export class RuntimeRoomView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() simulation!: string;
  @IsInt() simulationSteps!: number;
  @IsIn(roomModes) mode!: string;
  @IsInt() capacity!: number;
  @JSONSchema({ description: 'Participants present now' })
  @IsInt()
  occupancy!: number;
  @IsBoolean() sessionRunning!: boolean;
  @JSONSchema({ description: 'The running session (join it), or null (host the room)' })
  @Nullable()
  @ValidateNested()
  @Type(() => RuntimeSessionView)
  session!: RuntimeSessionView | null;

  static from({ room, occupancy, session }: RuntimeRoom): RuntimeRoomView {
    return {
      id: room.id,
      name: room.name,
      simulation: room.simulation,
      simulationSteps: room.simulationSteps,
      mode: room.mode,
      capacity: room.capacity,
      occupancy,
      sessionRunning: !!session,
      session: session
        ? { id: session.id, hostUserId: session.hostUserId, startedAt: isoTime(session.startedAt) }
        : null,
    };
  }
}

export class RuntimeRoomsView {
  @ValidateNested({ each: true }) @Type(() => RuntimeRoomView) items!: RuntimeRoomView[];
}

export class HeartbeatView {
  @IsUUID() sessionId!: string;
  @JSONSchema({ description: 'Whether the caller hosts the session (from the session, not from the request)' })
  @IsBoolean()
  isHost!: boolean;
  @IsDateString() expiresAt!: string;
  @IsInt() ttlSeconds!: number;

  static from(h: HeartbeatResult, ttlSeconds: number): HeartbeatView {
    return { sessionId: h.sessionId, isHost: h.isHost, expiresAt: isoTime(h.expiresAt), ttlSeconds };
  }
}

export class PresenceRecordView {
  @IsUUID() userId!: string;
  @IsString() displayName!: string;
  @Nullable() @IsString() currentStep!: string | null;
  @IsBoolean() isHost!: boolean;
  @IsDateString() lastSeenAt!: string;
  @IsDateString() expiresAt!: string;

  static from(p: PresenceRecord): PresenceRecordView {
    return {
      userId: p.userId,
      displayName: p.displayName,
      currentStep: p.currentStep,
      isHost: p.isHost,
      lastSeenAt: isoTime(p.lastSeenAt),
      expiresAt: isoTime(p.expiresAt),
    };
  }
}

export class PresenceView {
  @IsUUID() roomId!: string;
  @Nullable() @IsUUID() sessionId!: string | null;
  @ValidateNested({ each: true }) @Type(() => PresenceRecordView) participants!: PresenceRecordView[];
}

export class LeaveView {
  @IsUUID() sessionId!: string;
  @JSONSchema({ description: 'True when the caller hosted the session: it ended' })
  @IsBoolean()
  sessionEnded!: boolean;
}

export class TelemetryAcceptedView {
  @JSONSchema({ description: 'The Idempotency-Key, or the id given to a batch sent without one' })
  @IsString()
  batchKey!: string;
  @IsInt() events!: number;
  @JSONSchema({ description: 'The Idempotency-Key was seen before: nothing new was queued' })
  @IsBoolean()
  duplicate!: boolean;

  static from(b: AcceptedBatch): TelemetryAcceptedView {
    return { batchKey: b.batchKey, events: b.events, duplicate: b.duplicate };
  }
}
