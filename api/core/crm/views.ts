import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsNumber, IsObject, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { activityTypes, type Activity } from '../../../entities/core/activity';
import { contactTypes, customerKinds, type ContactPoint, type Customer, type CustomValues, type PostalAddress } from '../../../entities/core/customer';
import { customFieldTypes, type CustomField } from '../../../entities/core/customField';
import { dealEventTypes, dealStatuses, type Deal, type DealEvent } from '../../../entities/core/deal';
import { importKinds, importStatuses, type CrmImport, type ImportRecordError } from '../../../entities/core/crmImport';
import { riskLevelValues, type HealthScore, type StoredSignal } from '../../../entities/core/healthScore';
import type { PipelineStage } from '../../../entities/core/pipeline';
import { visibleCustomValues, type FieldDefinitions } from '../../../domain/core/crm/customFields';
import type { RelationFromOneSide } from '../../../domain/core/crm/relations';
import type { TaskItem } from '../../../domain/core/crm/listTasks';
import type { TimelineItem } from '../../../domain/core/crm/timeline';
import type { Board, BoardColumn, CurrencyTotal } from '../../../domain/core/crm/pipelineBoard';
import type { PipelineWithStages } from '../../../domain/core/crm/pipelines';
import type { SyncResult } from '../../../domain/core/crm/syncActivities';
import { mapPage, type Page } from '../../../lib/pagination';

/** Presenters of the CRM routes. */

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const scalarValues: Parameters<typeof JSONSchema>[0] = { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } };

export class ContactPointView {
  @IsIn(contactTypes) type!: string;
  @IsString() value!: string;
  @IsBoolean() primary!: boolean;
}

export class AddressView {
  @IsIn(contactTypes) type!: string;
  @IsString() line1!: string;
  @Nullable() @IsString() line2!: string | null;
  @Nullable() @IsString() postalCode!: string | null;
  @Nullable() @IsString() city!: string | null;
  @Nullable() @IsString() region!: string | null;
  @Nullable() @IsString() country!: string | null;
  @IsBoolean() primary!: boolean;
}

export class CustomerView {
  @IsUUID() id!: string;
  @IsIn(customerKinds) kind!: string;
  @IsString() name!: string;
  @IsString({ each: true }) roles!: string[];
  @IsString({ each: true }) tags!: string[];
  @ValidateNested({ each: true }) @Type(() => ContactPointView) emails!: ContactPointView[];
  @ValidateNested({ each: true }) @Type(() => ContactPointView) phones!: ContactPointView[];
  @ValidateNested({ each: true }) @Type(() => AddressView) addresses!: AddressView[];
  @Nullable() @IsString() primaryEmail!: string | null;
  @JSONSchema({ ...scalarValues, description: 'Custom field values by key (defined fields only)' })
  @IsObject() custom!: CustomValues;
  @Nullable() @IsUUID() ownerId!: string | null;
  @Nullable() @IsString() externalId!: string | null;
  @JSONSchema({ description: 'The latest call, e-mail or meeting done' })
  @Nullable() @IsDateString() lastContactAt!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(c: Customer, defs: FieldDefinitions): CustomerView {
    return {
      id: c.id,
      kind: c.kind,
      name: c.name,
      roles: c.roles,
      tags: c.tags,
      emails: c.emails as ContactPoint[],
      phones: c.phones as ContactPoint[],
      addresses: c.addresses as PostalAddress[],
      primaryEmail: c.primaryEmail ?? null,
      custom: visibleCustomValues(defs, c.custom),
      ownerId: c.ownerId ?? null,
      externalId: c.externalId ?? null,
      lastContactAt: iso(c.lastContactAt),
      createdAt: c.createdAt.toISOString(),
      updatedAt: c.updatedAt.toISOString(),
    };
  }
}

export class RelationView {
  @IsUUID() id!: string;
  @JSONSchema({ description: 'Read from this customer: employee_of from the person is employer_of from the organisation' })
  @IsString() type!: string;
  @JSONSchema({ description: 'outgoing: created from this customer; incoming: from the other' })
  @IsIn(['outgoing', 'incoming']) direction!: string;
  @IsUUID() customerId!: string;
  @IsString() customerName!: string;
  @IsIn(customerKinds) customerKind!: string;
  @IsDateString() createdAt!: string;

  static from(r: RelationFromOneSide): RelationView {
    return { ...r, createdAt: r.createdAt.toISOString() };
  }
}

export class CustomerDetailView extends CustomerView {
  @ValidateNested({ each: true }) @Type(() => RelationView) relations!: RelationView[];
}

export class CustomerPageView {
  @ValidateNested({ each: true }) @Type(() => CustomerView) items!: CustomerView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Customer>, defs: FieldDefinitions): CustomerPageView {
    return mapPage(page, (c) => CustomerView.from(c, defs));
  }
}

export class CustomFieldView {
  @IsString() key!: string;
  @IsString() label!: string;
  @IsIn(customFieldTypes) type!: string;
  @IsString({ each: true }) options!: string[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(f: CustomField): CustomFieldView {
    return { key: f.key, label: f.label, type: f.type, options: f.options, createdAt: f.createdAt.toISOString(), updatedAt: f.updatedAt.toISOString() };
  }
}

export class CustomFieldListView {
  @ValidateNested({ each: true }) @Type(() => CustomFieldView) items!: CustomFieldView[];
}

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
  @Nullable() @IsString() source!: string | null;
  @Nullable() @IsString() externalId!: string | null;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(a: Activity): ActivityView {
    return {
      id: a.id,
      customerId: a.customerId,
      type: a.type,
      subject: a.subject,
      body: a.body,
      occurredAt: a.occurredAt.toISOString(),
      dueAt: iso(a.dueAt),
      completedAt: iso(a.completedAt),
      assigneeId: a.assigneeId ?? null,
      createdBy: a.createdBy ?? null,
      source: a.source ?? null,
      externalId: a.externalId ?? null,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }
}

export class TaskView extends ActivityView {
  @IsString() customerName!: string;
  @JSONSchema({ description: 'Due before now' })
  @IsBoolean() overdue!: boolean;
}

export class TaskPageView {
  @ValidateNested({ each: true }) @Type(() => TaskView) items!: TaskView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<TaskItem>, now = Date.now()): TaskPageView {
    return mapPage(page, (t) => ({ ...ActivityView.from(t.activity), customerName: t.customerName, overdue: !!t.activity.dueAt && t.activity.dueAt.getTime() < now }));
  }
}

export class TimelineItemView {
  @JSONSchema({ description: 'activity; invoice, appointment ... as their modules register' })
  @IsString() source!: string;
  @IsUUID() id!: string;
  @IsDateString() at!: string;
  @IsString() type!: string;
  @IsString() title!: string;
  @Nullable() @IsString() summary!: string | null;
  @JSONSchema({ type: 'object', additionalProperties: true, description: 'Facts of the source (due dates, amounts, statuses ...)' })
  @IsObject() data!: Record<string, unknown>;

  static from(i: TimelineItem): TimelineItemView {
    return { ...i, at: i.at.toISOString() };
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
  @IsNumber() value!: number;
  @IsString() detail!: string;
  @JSONSchema({ type: 'object', additionalProperties: { type: ['number', 'string', 'null'] } })
  @IsObject() facts!: Record<string, number | string | null>;
}

export class HealthScoreView {
  @IsUUID() customerId!: string;
  @JSONSchema({ description: 'round(100 × Σ weight × value / Σ weight) over the signals that apply (50 when none does)' })
  @IsInt() score!: number;
  @JSONSchema({ description: 'low (score ≥ 70), medium (40-69), high (< 40)' })
  @IsIn(riskLevelValues) risk!: string;
  @ValidateNested({ each: true }) @Type(() => SignalView) signals!: SignalView[];
  @IsDateString() computedAt!: string;

  static from(h: HealthScore): HealthScoreView {
    return { customerId: h.customerId, score: h.score, risk: h.risk, signals: h.signals as StoredSignal[], computedAt: h.computedAt.toISOString() };
  }
}

export class StageView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @IsInt() position!: number;
  @IsInt() probability!: number;

  static from(s: PipelineStage): StageView {
    return { id: s.id, name: s.name, position: s.position, probability: s.probability };
  }
}

export class PipelineView {
  @IsUUID() id!: string;
  @IsString() name!: string;
  @ValidateNested({ each: true }) @Type(() => StageView) stages!: StageView[];
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from({ pipeline, stages }: PipelineWithStages): PipelineView {
    return { id: pipeline.id, name: pipeline.name, stages: stages.map(StageView.from), createdAt: pipeline.createdAt.toISOString(), updatedAt: pipeline.updatedAt.toISOString() };
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
  @IsInt() amount!: number;
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

  static from(d: Deal): DealView {
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
      stageChangedAt: d.stageChangedAt.toISOString(),
      externalId: d.externalId ?? null,
      createdAt: d.createdAt.toISOString(),
      updatedAt: d.updatedAt.toISOString(),
    };
  }
}

/** A date column comes back as a string or (raw rows) a Date at UTC midnight. */
const dateOnly = (v: string | Date | null | undefined): string | null => (v == null ? null : typeof v === 'string' ? v.slice(0, 10) : v.toISOString().slice(0, 10));

export class DealEventView {
  @IsIn(dealEventTypes) type!: string;
  @Nullable() @IsUUID() fromStageId!: string | null;
  @Nullable() @IsUUID() toStageId!: string | null;
  @Nullable() @IsUUID() actorId!: string | null;
  @IsDateString() at!: string;
  @Nullable() @IsString() reason!: string | null;

  static from(e: DealEvent): DealEventView {
    return { type: e.type, fromStageId: e.fromStageId ?? null, toStageId: e.toStageId ?? null, actorId: e.actorId ?? null, at: e.at.toISOString(), reason: e.reason ?? null };
  }
}

export class DealDetailView extends DealView {
  @JSONSchema({ description: 'Stages entered and status changes, oldest first, with actor and time' })
  @ValidateNested({ each: true }) @Type(() => DealEventView) history!: DealEventView[];
}

export class DealPageView {
  @ValidateNested({ each: true }) @Type(() => DealView) items!: DealView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Deal>): DealPageView {
    return mapPage(page, DealView.from);
  }
}

export class CurrencyTotalView {
  @IsString() currency!: string;
  @JSONSchema({ description: 'Sum of the open deals, cents' })
  @IsInt() amount!: number;
  @JSONSchema({ description: 'Weighted forecast, cents: per stage round(amount × probability / 100), in total the sum of the stages' })
  @IsInt() weighted!: number;
  @IsInt() count!: number;

  static from(t: CurrencyTotal): CurrencyTotalView {
    return { ...t };
  }
}

export class BoardColumnView {
  @ValidateNested() @Type(() => StageView) stage!: StageView;
  @JSONSchema({ description: 'Open deals of the stage, most recently moved first (at most perStage)' })
  @ValidateNested({ each: true }) @Type(() => DealView) deals!: DealView[];
  @IsInt() count!: number;
  @ValidateNested({ each: true }) @Type(() => CurrencyTotalView) totals!: CurrencyTotalView[];

  static from(c: BoardColumn): BoardColumnView {
    return { stage: StageView.from(c.stage), deals: c.deals.map(DealView.from), count: c.count, totals: c.totals.map(CurrencyTotalView.from) };
  }
}

export class BoardView {
  @IsUUID() pipelineId!: string;
  @IsString() name!: string;
  @ValidateNested({ each: true }) @Type(() => BoardColumnView) stages!: BoardColumnView[];
  @ValidateNested({ each: true }) @Type(() => CurrencyTotalView) totals!: CurrencyTotalView[];

  static from(b: Board): BoardView {
    return { pipelineId: b.pipeline.id, name: b.pipeline.name, stages: b.columns.map(BoardColumnView.from), totals: b.totals.map(CurrencyTotalView.from) };
  }
}

export class ImportErrorView {
  @JSONSchema({ description: 'Index of the record in the call (-1: the whole import)' })
  @IsInt() index!: number;
  @Nullable() @IsString() externalId!: string | null;
  @IsString() field!: string;
  @IsString() message!: string;
}

export class ImportView {
  @IsUUID() id!: string;
  @IsIn(importKinds) kind!: string;
  @JSONSchema({ description: 'queued, running, completed (records stored or reported in errors) or failed' })
  @IsIn(importStatuses) status!: string;
  @IsInt() total!: number;
  @IsInt() created!: number;
  @IsInt() updated!: number;
  @IsInt() failed!: number;
  @ValidateNested({ each: true }) @Type(() => ImportErrorView) errors!: ImportErrorView[];
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() finishedAt!: string | null;
  @JSONSchema({ description: 'Where to follow the import' })
  @IsString() statusUrl!: string;

  static from(i: CrmImport): ImportView {
    return {
      id: i.id,
      kind: i.kind,
      status: i.status,
      total: i.total,
      created: i.created,
      updated: i.updated,
      failed: i.failed,
      errors: i.errors as ImportRecordError[],
      createdAt: i.createdAt.toISOString(),
      finishedAt: iso(i.finishedAt),
      statusUrl: `/api/public/hub/imports/${i.id}`,
    };
  }
}

export class SyncedActivityView {
  @IsString() externalId!: string;
  @IsUUID() customerId!: string;
  @IsUUID() activityId!: string;
  @IsBoolean() created!: boolean;
}

export class SyncResultView {
  @IsInt() created!: number;
  @IsInt() updated!: number;
  @ValidateNested({ each: true }) @Type(() => SyncedActivityView) activities!: SyncedActivityView[];

  static from(r: SyncResult): SyncResultView {
    return r;
  }
}

