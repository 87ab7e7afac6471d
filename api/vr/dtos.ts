import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsInstant, Length, MaxLength, PageQuery } from '../http/dtos';
import { roomModes, roomStatuses, type RoomMode, type RoomStatus } from '../../entities/vr/room';
import { sessionStatuses, type SessionStatus } from '../../entities/vr/session';
import { TELEMETRY_LABEL_LENGTH, TELEMETRY_TYPE_LENGTH } from '../../entities/vr/telemetry';
import { MAX_CAPACITY, MIN_CAPACITY } from '../../domain/vr/roomRules';
import { MAX_BATCH_EVENTS } from '../../domain/vr/telemetryVocabulary';
import { tooLarge } from '../../lib/errors';
import { roomModeDescription, telemetryEventUser } from './dtos.docs';

/** Request bodies, queries and path parameters of the VR routes. Unknown fields are refused. */

const SIMULATION_KEY = /^[a-z0-9][a-z0-9._-]{0,79}$/;
const simulationKey = {
  message: 'simulation must be a key of 1-80 characters: lowercase letters, digits, ".", "_" or "-"',
};

export class CreateRoomBody {
  @IsString() @Length(1, 120) name!: string;
  @JSONSchema({ description: 'Key of the simulation the headsets load, e.g. fire-safety-101' })
  @Matches(SIMULATION_KEY, simulationKey)
  simulation!: string;
  @JSONSchema({
    description: 'Number of distinct steps of the simulation; progress = distinct step_passed labels / this',
  })
  @IsInt()
  @Min(1)
  @Max(1000)
  simulationSteps!: number;
  @JSONSchema({ description: roomModeDescription })
  @IsIn(roomModes)
  mode!: RoomMode;
  @JSONSchema({
    description: `Participants present at once, host included (${MIN_CAPACITY}-${MAX_CAPACITY}; default 8, always 1 for solo)`,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_CAPACITY)
  @Max(MAX_CAPACITY)
  capacity?: number;
  @JSONSchema({ description: 'User ids of members of the organisation who may use the room (max 500)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  participantIds?: string[];
}

export class UpdateRoomBody {
  @IsOptional() @IsString() @Length(1, 120) name?: string;
  @IsOptional() @Matches(SIMULATION_KEY, simulationKey) simulation?: string;
  @IsOptional() @IsInt() @Min(1) @Max(1000) simulationSteps?: number;
  @IsOptional() @IsIn(roomModes) mode?: RoomMode;
  @IsOptional() @IsInt() @Min(MIN_CAPACITY) @Max(MAX_CAPACITY) capacity?: number;
  @JSONSchema({ description: 'Replaces the assigned participants' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @IsUUID('all', { each: true })
  participantIds?: string[];
}

export class ListRoomsQuery extends PageQuery {
  @IsOptional() @IsIn(roomStatuses) status?: RoomStatus;
  @IsOptional() @Matches(SIMULATION_KEY, simulationKey) simulation?: string;
}

export class HeartbeatBody {
  @IsString() @Length(1, 120) displayName!: string;
  @JSONSchema({
    description: 'The step the participant is on (a step label; a number is taken as its string)',
    type: ['string', 'null'],
  })
  @Transform(({ value }) => (typeof value === 'number' ? String(value) : value))
  @IsOptional()
  @IsString()
  @MaxLength(200)
  currentStep?: string | null;
  @JSONSchema({ description: 'What the headset believes; presence reports who actually hosted the session' })
  @IsOptional()
  @IsBoolean()
  isHost?: boolean;
}

export class TelemetryEventBody {
  @JSONSchema({ description: telemetryEventUser })
  @IsOptional()
  @IsUUID()
  userId?: string;
  @JSONSchema({ description: 'Event type: step_passed, simulation_completed, or any other (stored and counted only)' })
  @IsString()
  @Length(1, TELEMETRY_TYPE_LENGTH)
  type!: string;
  @JSONSchema({ description: 'For step_passed, the step key' })
  @IsString()
  @MaxLength(TELEMETRY_LABEL_LENGTH)
  label!: string;
  @IsString() @MaxLength(2000) detail!: string;
}

const EVENT_KEYS = new Set(['userId', 'type', 'label', 'detail']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/; // lower case: others take the full path (toDto lowers them)
/**
 * Counted in UTF-16 code units, never fewer than the code points PostgreSQL's varchar(n) counts (the
 * entity's type and label lengths; detail is text): a batch passed here fits the columns, so a 202 is never refused by the worker's insert.
 * Text longer in code units only (astral characters) gets the full validation, which counts code points; min is
 * 0 or 1 here, where code units and code points agree.
 */
const text = (v: unknown, min: number, max: number) => typeof v === 'string' && v.length >= min && v.length <= max;

/**
 * The hot path's check of a batch: at least as strict as TelemetryEventBody's decorators (every batch it
 * passes, they pass too; toDto has refused unstorable text before). ~0.01 ms for 50 events, against ~1 ms for class-transformer and class-validator;
 * any other batch gets the full validation and its field-level errors (events[3].type ...).
 */
export function isCleanBatch(events: unknown): boolean {
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_BATCH_EVENTS) return false;
  for (const e of events as Record<string, unknown>[]) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
    for (const key in e) if (!EVENT_KEYS.has(key)) return false;
    if (e.userId !== undefined && !(typeof e.userId === 'string' && UUID.test(e.userId))) return false;
    if (
      !text(e.type, 1, TELEMETRY_TYPE_LENGTH) ||
      !text(e.label, 0, TELEMETRY_LABEL_LENGTH) ||
      !text(e.detail, 0, 2000)
    )
      return false;
  }
  return true;
}

export class TelemetryBody {
  /**
   * A clean batch skips the decorators (see toDto); `{ events }` only. An oversized batch is refused here
   * (413), before class-transformer would convert each of its events: 2 MB of them cost ~0.5 s of CPU.
   */
  static fastAccept(body: unknown): boolean {
    if (typeof body !== 'object' || body === null) return false;
    const { events } = body as { events?: unknown };
    if (Array.isArray(events) && events.length > MAX_BATCH_EVENTS)
      throw tooLarge('batch_too_large', `A batch holds at most ${MAX_BATCH_EVENTS} events; split it`);
    for (const key in body) if (key !== 'events') return false;
    return isCleanBatch(events);
  }

  @JSONSchema({ description: `1 to ${MAX_BATCH_EVENTS} events; more is 413 batch_too_large` })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BATCH_EVENTS)
  @ValidateNested({ each: true })
  @Type(() => TelemetryEventBody)
  events!: TelemetryEventBody[];
}

export class VrSessionFiltersQuery extends PageQuery {
  @IsOptional() @IsUUID() roomId?: string;
  @IsOptional() @Matches(SIMULATION_KEY, simulationKey) simulation?: string;
  @JSONSchema({ description: 'Sessions started at or after this time (ISO 8601)', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  from?: string;
  @JSONSchema({ description: 'Sessions started before this time (ISO 8601)', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  to?: string;
}

export class VrListSessionsQuery extends VrSessionFiltersQuery {
  @IsOptional() @IsIn(sessionStatuses) status?: SessionStatus;
}

export class VrOverviewQuery {
  @IsOptional() @IsUUID() roomId?: string;
  @IsOptional() @Matches(SIMULATION_KEY, simulationKey) simulation?: string;
  @JSONSchema({ description: 'Sessions started at or after this time (ISO 8601)', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  from?: string;
  @JSONSchema({ description: 'Sessions started before this time (ISO 8601)', type: 'string' })
  @IsOptional()
  @IsInstant()
  @MaxLength(40)
  to?: string;
}

/** Body of POST /internal/ai/chat. */
export class AiMessageBody {
  @IsIn(['system', 'user', 'assistant']) role!: 'system' | 'user' | 'assistant';
  @IsString() @MaxLength(32_000) content!: string;
}

export class AiToolBody {
  @Matches(/^[a-zA-Z0-9_-]{1,64}$/) name!: string;
  @IsString() @MaxLength(1000) description!: string;
  @JSONSchema({ description: 'JSON Schema of the arguments', type: 'object', additionalProperties: true })
  @IsObject()
  parameters!: Record<string, unknown>;
}

export class AiChatBody {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AiMessageBody)
  messages!: AiMessageBody[];
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(32)
  @ValidateNested({ each: true })
  @Type(() => AiToolBody)
  tools?: AiToolBody[];
  @IsOptional() @IsInt() @Min(1) @Max(8192) maxTokens?: number;
}
