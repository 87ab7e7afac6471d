import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { clockSources, correctionActions, punchKinds, type HrClockCorrection } from '../../entities/hr/clock';
import type { ClockEventWithTrail } from '../../domain/hr/clockTrails';
import { correctedPunch } from '../../domain/hr/timeline';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';
import { clockEventCorrections, clockEventEffective } from './clockViews.docs';

/** Presenters of clock events and their corrections. */

export class CorrectionView {
  @IsUUID() id!: string;
  @IsIn(correctionActions) action!: string;
  @Nullable() @IsDateString() at!: string | null;
  @Nullable() @IsIn(punchKinds) kind!: string | null;
  @IsString() reason!: string;
  @Nullable() @IsUUID() authorId!: string | null;
  @IsDateString() createdAt!: string;

  static from(c: HrClockCorrection): CorrectionView {
    return {
      id: c.id,
      action: c.action,
      at: iso(c.at),
      kind: c.kind ?? null,
      reason: c.reason,
      authorId: c.authorId ?? null,
      createdAt: isoTime(c.createdAt),
    };
  }
}

export class EffectivePunchView {
  @IsIn(punchKinds) kind!: string;
  @IsDateString() at!: string;
}

export class ClockEventView {
  @IsUUID() id!: string;
  @IsUUID() employeeId!: string;
  @JSONSchema({ description: 'As recorded (never changes)' })
  @IsIn(punchKinds)
  kind!: string;
  @JSONSchema({ description: 'As recorded (never changes)' })
  @IsDateString()
  at!: string;
  @IsString() timeZone!: string;
  @IsIn(clockSources) source!: string;
  @Nullable() @IsUUID() recordedBy!: string | null;
  @Nullable() @IsString() note!: string | null;
  @IsDateString() createdAt!: string;
  @JSONSchema({ description: clockEventEffective })
  @Nullable()
  @ValidateNested()
  @Type(() => EffectivePunchView)
  effective!: EffectivePunchView | null;
  @IsBoolean() corrected!: boolean;
  @JSONSchema({ description: clockEventCorrections })
  @ValidateNested({ each: true })
  @Type(() => CorrectionView)
  corrections!: CorrectionView[];

  static from({ event: e, corrections }: ClockEventWithTrail): ClockEventView {
    const punch = correctedPunch(e, corrections);
    const effective = punch && { kind: punch.kind, at: punch.at.toISOString() };
    return {
      id: e.id,
      employeeId: e.employeeId,
      kind: e.kind,
      at: isoTime(e.at),
      timeZone: e.timeZone,
      source: e.source,
      recordedBy: e.recordedBy ?? null,
      note: e.note ?? null,
      createdAt: isoTime(e.createdAt),
      effective,
      corrected: corrections.length > 0,
      corrections: corrections.map(CorrectionView.from),
    };
  }
}

export class ClockEventPageView {
  @ValidateNested({ each: true }) @Type(() => ClockEventView) items!: ClockEventView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<ClockEventWithTrail>): ClockEventPageView {
    return mapPage(page, ClockEventView.from);
  }
}
