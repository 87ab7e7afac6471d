import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { calendarConnectionStatuses, type CalendarConnectionStatus } from '../../../entities/core/calendar';
import type { ConnectionState } from '../../../domain/core/booking/external/connections';
import { Nullable } from '../../http/nullable';
import { isoTime } from '../../http/present';

/** An external calendar connection (never its password). */
export class CalendarConnectionView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsString() url!: string;
  @IsString() username!: string;
  @JSONSchema({ description: 'pending: not synced yet; ok: the last sync worked; error: it failed (lastError)' })
  @IsIn([...calendarConnectionStatuses])
  status!: CalendarConnectionStatus;
  @JSONSchema({ description: 'Why the last sync failed (null once one works)' })
  @Nullable()
  @IsString()
  lastError!: string | null;
  @JSONSchema({ description: 'When a sync last worked' })
  @Nullable()
  @IsDateString()
  lastSyncedAt!: string | null;
  @JSONSchema({ description: 'Failed syncs in a row' }) @IsInt() failures!: number;
  @JSONSchema({ description: 'Calendar objects read from it' }) @IsInt() objects!: number;
  @IsDateString() createdAt!: string;

  static from({ connection: c, objects }: ConnectionState): CalendarConnectionView {
    return {
      id: c.id,
      name: c.name,
      url: c.url,
      username: c.username,
      status: c.status,
      lastError: c.lastError ?? null,
      lastSyncedAt: c.lastSyncedAt ? isoTime(c.lastSyncedAt) : null,
      failures: c.failures,
      objects,
      createdAt: isoTime(c.createdAt),
    };
  }
}

export class CalendarConnectionListView {
  @ValidateNested({ each: true }) @Type(() => CalendarConnectionView) items!: CalendarConnectionView[];

  static from(states: ConnectionState[]): CalendarConnectionListView {
    return { items: states.map(CalendarConnectionView.from) };
  }
}
