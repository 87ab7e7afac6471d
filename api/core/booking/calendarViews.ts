import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import type { CalendarEvent } from '../../../entities/core/calendar';
import type { StaffFreeBusy } from '../../../domain/core/booking/staffFreeBusy';
import type { SyncInfo } from '../../../domain/core/booking/feedAddress';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { isoTime } from '../../http/present';
import { busyKindDoc, calDavDoc, feedUrlDoc } from './calendarViews.docs';

/** Presenters of the calendar routes (events, free/busy, sync information). */

export class CalendarEventView {
  @IsUUID() id!: string;
  @IsUUID() ownerId!: string;
  @Nullable() @IsUUID() staffId!: string | null;
  @IsString() title!: string;
  @Nullable() @IsString() description!: string | null;
  @Nullable() @IsString() location!: string | null;
  @IsDateString() startAt!: string;
  @IsDateString() endAt!: string;
  @JSONSchema({ description: "From local midnight to local midnight in the business's time zone" })
  @IsBoolean()
  allDay!: boolean;
  @IsBoolean() busy!: boolean;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(e: Lean<CalendarEvent>): CalendarEventView {
    return {
      id: e.id,
      ownerId: e.ownerId,
      staffId: e.staffId ?? null,
      title: e.title,
      description: e.description ?? null,
      location: e.location ?? null,
      startAt: isoTime(e.startAt),
      endAt: isoTime(e.endAt),
      allDay: e.allDay,
      busy: e.busy,
      createdAt: isoTime(e.createdAt),
      updatedAt: isoTime(e.updatedAt),
    };
  }
}

export class CalendarEventPageView {
  @ValidateNested({ each: true }) @Type(() => CalendarEventView) items!: CalendarEventView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<CalendarEvent>>): CalendarEventPageView {
    return mapPage(page, CalendarEventView.from);
  }
}

export class BusyPeriodView {
  @IsDateString() start!: string;
  @IsDateString() end!: string;
  @JSONSchema({ description: busyKindDoc })
  @IsIn(['appointment', 'event', 'leave'])
  kind!: string;
}

export class StaffFreeBusyView {
  @IsUUID() staffId!: string;
  @IsString() displayName!: string;
  @ValidateNested({ each: true }) @Type(() => BusyPeriodView) busy!: BusyPeriodView[];

  static from(f: StaffFreeBusy): StaffFreeBusyView {
    return {
      staffId: f.staff.id,
      displayName: f.staff.displayName,
      busy: f.busy.map((b) => ({ start: isoTime(b.start), end: isoTime(b.end), kind: b.kind })),
    };
  }
}

export class FreeBusyView {
  @IsDateString() from!: string;
  @IsDateString() to!: string;
  @IsString() timeZone!: string;
  @ValidateNested({ each: true }) @Type(() => StaffFreeBusyView) staff!: StaffFreeBusyView[];
}

export class CalDavView {
  @IsString() url!: string;
  @IsString() username!: string;
}

export class CalendarSyncInfoView {
  @JSONSchema({ description: feedUrlDoc })
  @IsString()
  feedUrl!: string;
  @IsDateString() feedCreatedAt!: string;
  @JSONSchema({ description: calDavDoc })
  @Nullable()
  @ValidateNested()
  @Type(() => CalDavView)
  caldav!: CalDavView | null;

  static from(s: SyncInfo): CalendarSyncInfoView {
    return { feedUrl: s.feedUrl, feedCreatedAt: isoTime(s.feedCreatedAt), caldav: s.caldav };
  }
}
