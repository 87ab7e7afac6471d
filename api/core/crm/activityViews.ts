import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { activityTypes, type Activity } from '../../../entities/core/activity';
import { riskLevelValues, type HealthScore, type StoredSignal } from '../../../entities/core/healthScore';
import type { TaskItem } from '../../../domain/core/crm/listTasks';
import type { TimelineItem } from '../../../domain/core/crm/timeline';
import type { Lean } from '../../../lib/lean';
import { mapPage, type Page } from '../../../lib/pagination';
import { iso, isoTime } from '../../http/present';

/** Presenters of CRM activities, tasks, the timeline and health scores. */
export class ActivityView {
  @IsUUID() id!: string;
  @IsUUID() customerId!: string;
  @IsIn(activityTypes) type!: string;
  @IsString() subject!: string;
  @IsString() body!: string;
  @IsDateString() occurredAt!: string;
  @Nullable() @IsDateString() dueAt!: string | null;
  @Nullable() @IsDateString() completedAt!: string | null;
  @Nullable() @IsUUID() assigneeId!: string | null;
  @Nullable() @IsUUID() createdBy!: string | null;
  @JSONSchema({ description: 'The system a synced activity comes from (`email` for logged e-mails)' })
  @Nullable()
  @IsString()
  source!: string | null;
  @Nullable() @IsString() externalId!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(a: Lean<Activity>): ActivityView {
    return {
      id: a.id,
      customerId: a.customerId,
      type: a.type,
      subject: a.subject,
      body: a.body,
      occurredAt: isoTime(a.occurredAt),
      dueAt: iso(a.dueAt),
      completedAt: iso(a.completedAt),
      assigneeId: a.assigneeId ?? null,
      createdBy: a.createdBy ?? null,
      source: a.source ?? null,
      externalId: a.externalId ?? null,
      createdAt: isoTime(a.createdAt),
      updatedAt: isoTime(a.updatedAt),
    };
  }
}

export class TaskView extends ActivityView {
  @IsString() customerName!: string;
  @JSONSchema({ description: 'Due before now' })
  @IsBoolean()
  overdue!: boolean;
}

export class TaskPageView {
  @ValidateNested({ each: true }) @Type(() => TaskView) items!: TaskView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<TaskItem>, now = Date.now()): TaskPageView {
    return mapPage(page, (t) => ({
      ...ActivityView.from(t.activity),
      customerName: t.customerName,
      overdue: !!t.activity.dueAt && t.activity.dueAt.getTime() < now,
    }));
  }
}

export class TimelineItemView {
  @JSONSchema({ description: 'activity; invoice, appointment ... as their modules register' })
  @IsString()
  source!: string;
  @IsUUID() id!: string;
  @IsDateString() at!: string;
  @IsString() type!: string;
  @IsString() title!: string;
  @Nullable() @IsString() summary!: string | null;
  @JSONSchema({
    type: 'object',
    additionalProperties: true,
    description: 'Facts of the source (due dates, amounts, statuses ...)',
  })
  @IsObject()
  data!: Record<string, unknown>;

  static from(i: TimelineItem): TimelineItemView {
    return { ...i, at: isoTime(i.at) };
  }
}

export class TimelinePageView {
  @ValidateNested({ each: true }) @Type(() => TimelineItemView) items!: TimelineItemView[];
  @Nullable() @IsString() nextCursor!: string | null;
}

export class SignalView {
  @IsString() key!: string;
  @IsString() label!: string;
  @IsNumber() weight!: number;
  @JSONSchema({ description: '0 (bad) to 1 (healthy)' })
  @IsNumber()
  value!: number;
  @IsString() detail!: string;
  @JSONSchema({ type: 'object', additionalProperties: { type: ['number', 'string', 'null'] } })
  @IsObject()
  facts!: Record<string, number | string | null>;
}

export class HealthScoreView {
  @IsUUID() customerId!: string;
  @JSONSchema({
    description: 'round(100 × Σ weight × value / Σ weight) over the signals that apply (50 when none does)',
  })
  @IsInt()
  score!: number;
  @JSONSchema({ description: 'low (score ≥ 70), medium (40-69), high (< 40)' })
  @IsIn(riskLevelValues)
  risk!: string;
  @ValidateNested({ each: true }) @Type(() => SignalView) signals!: SignalView[];
  @IsDateString() computedAt!: string;

  static from(h: HealthScore): HealthScoreView {
    return {
      customerId: h.customerId,
      score: h.score,
      risk: h.risk,
      signals: h.signals as StoredSignal[],
      computedAt: isoTime(h.computedAt),
    };
  }
}
