import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { dealEventTypes, dealStatuses, type Deal, type DealEvent } from '../../../entities/core/deal';
import type { PipelineStage } from '../../../entities/core/pipeline';
import type { Board, BoardColumn, CurrencyTotal } from '../../../domain/core/crm/boardForecast';
import type { PipelineRows } from '../../../domain/core/crm/pipelineLookup';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { dateOnly, iso, isoTime } from '../../http/present';
import { currencyTotalViewWeightedDoc } from './dealViews.docs';

/** Presenters of pipelines, deals and the board. */
export class StageView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsInt() position!: number;
  @IsInt() probability!: number;

  static from(s: Lean<PipelineStage>): StageView {
    return { id: s.id, name: s.name, position: s.position, probability: s.probability };
  }
}

export class PipelineView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @ValidateNested({ each: true }) @Type(() => StageView) stages!: StageView[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from({ pipeline, stages }: PipelineRows): PipelineView {
    return {
      id: pipeline.id,
      name: pipeline.name,
      stages: stages.map(StageView.from),
      createdAt: isoTime(pipeline.createdAt),
      updatedAt: isoTime(pipeline.updatedAt),
    };
  }
}

export class PipelineListView {
  @ValidateNested({ each: true }) @Type(() => PipelineView) items!: PipelineView[];
}

export class DealView {
  @IsUUID() id!: string;
  @IsString() title!: string;
  @IsUUID() customerId!: string;
  @IsUUID() pipelineId!: string;
  @IsUUID() stageId!: string;
  @JSONSchema({ description: 'Integer cents' })
  @IsInt()
  amount!: number;
  @IsString() currency!: string;
  @Nullable() @IsUUID() ownerId!: string | null;
  @IsIn(dealStatuses) status!: string;
  @Nullable() @IsString() lostReason!: string | null;
  @Nullable() @IsString() expectedCloseDate!: string | null;
  @Nullable() @IsDateString() closedAt!: string | null;
  @IsDateString() stageChangedAt!: string;
  @Nullable() @IsString() externalId!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(d: Lean<Deal>): DealView {
    return {
      id: d.id,
      title: d.title,
      customerId: d.customerId,
      pipelineId: d.pipelineId,
      stageId: d.stageId,
      amount: Number(d.amount),
      currency: d.currency,
      ownerId: d.ownerId ?? null,
      status: d.status,
      lostReason: d.lostReason ?? null,
      expectedCloseDate: dateOnly(d.expectedCloseDate),
      closedAt: iso(d.closedAt),
      stageChangedAt: isoTime(d.stageChangedAt),
      externalId: d.externalId ?? null,
      createdAt: isoTime(d.createdAt),
      updatedAt: isoTime(d.updatedAt),
    };
  }
}

/** A date column comes back as a string or (raw rows) a Date at UTC midnight. */

export class DealEventView {
  @IsIn(dealEventTypes) type!: string;
  @Nullable() @IsUUID() fromStageId!: string | null;
  @Nullable() @IsUUID() toStageId!: string | null;
  @Nullable() @IsUUID() actorId!: string | null;
  @IsDateString() at!: string;
  @Nullable() @IsString() reason!: string | null;

  static from(e: Lean<DealEvent>): DealEventView {
    return {
      type: e.type,
      fromStageId: e.fromStageId ?? null,
      toStageId: e.toStageId ?? null,
      actorId: e.actorId ?? null,
      at: isoTime(e.at),
      reason: e.reason ?? null,
    };
  }
}

export class DealDetailView extends DealView {
  @JSONSchema({ description: 'Stages entered and status changes, oldest first, with actor and time' })
  @ValidateNested({ each: true })
  @Type(() => DealEventView)
  history!: DealEventView[];
}

export class DealPageView {
  @ValidateNested({ each: true }) @Type(() => DealView) items!: DealView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<Deal>>): DealPageView {
    return mapPage(page, DealView.from);
  }
}

export class CurrencyTotalView {
  @IsString() currency!: string;
  @JSONSchema({ description: 'Sum of the open deals, cents' })
  @IsInt()
  amount!: number;
  @JSONSchema({ description: currencyTotalViewWeightedDoc })
  @IsInt()
  weighted!: number;
  @IsInt() count!: number;

  static from(t: CurrencyTotal): CurrencyTotalView {
    return { ...t };
  }
}

export class BoardColumnView {
  @ValidateNested() @Type(() => StageView) stage!: StageView;
  @JSONSchema({ description: 'Open deals of the stage, most recently moved first (at most perStage)' })
  @ValidateNested({ each: true })
  @Type(() => DealView)
  deals!: DealView[];
  @IsInt() count!: number;
  @ValidateNested({ each: true }) @Type(() => CurrencyTotalView) totals!: CurrencyTotalView[];

  static from(c: BoardColumn): BoardColumnView {
    return {
      stage: StageView.from(c.stage),
      deals: c.deals.map(DealView.from),
      count: c.count,
      totals: c.totals.map(CurrencyTotalView.from),
    };
  }
}

export class BoardView {
  @IsUUID() pipelineId!: string;
  @IsString() name!: string;
  @ValidateNested({ each: true }) @Type(() => BoardColumnView) stages!: BoardColumnView[];
  @ValidateNested({ each: true }) @Type(() => CurrencyTotalView) totals!: CurrencyTotalView[];

  static from(b: Board): BoardView {
    return {
      pipelineId: b.pipeline.id,
      name: b.pipeline.name,
      stages: b.columns.map(BoardColumnView.from),
      totals: b.totals.map(CurrencyTotalView.from),
    };
  }
}
