import { Type } from 'class-transformer';
import { IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../../http/nullable';
import { switchableModules } from '../../../domain/core/org/activeModules';
import type { DashboardSummary } from '../../../domain/core/org/dashboardSummary';
import { isoTime } from '../../http/present';

/** Presenter of GET /api/dashboard/summary. */

export class AppointmentsTodayView {
  @JSONSchema({ description: 'Appointments of today not cancelled' }) @IsInt() total!: number;
  @JSONSchema({ description: 'Booked or confirmed, not started yet' }) @IsInt() upcoming!: number;
  @IsInt() completed!: number;
  @IsInt() cancelled!: number;
}

export class OpenTasksView {
  @JSONSchema({ description: 'Open follow-ups (tasks, and activities with a due date, not completed)' })
  @IsInt()
  open!: number;
  @IsInt() overdue!: number;
  @IsInt() dueToday!: number;
}

export class AmountDueView {
  @IsString() currency!: string;
  @IsInt() amountDueCents!: number;
}

export class UnpaidInvoicesView {
  @JSONSchema({ description: 'Issued invoices with an amount still due' }) @IsInt() count!: number;
  @JSONSchema({ description: 'Of which past their due date' }) @IsInt() overdueCount!: number;
  @JSONSchema({ description: 'Amount due per currency' })
  @ValidateNested({ each: true })
  @Type(() => AmountDueView)
  amounts!: AmountDueView[];
}

export class StageDealsView {
  @IsUUID() pipelineId!: string;
  @IsString() pipelineName!: string;
  @IsUUID() stageId!: string;
  @IsString() stageName!: string;
  @IsInt() position!: number;
  @JSONSchema({ description: 'Open deals in the stage' }) @IsInt() count!: number;
  @JSONSchema({ description: 'Sum of their amounts (cents, in their currencies as entered)' }) @IsInt() amount!: number;
}

export class StorageUseView {
  @IsInt() usedBytes!: number;
  @IsInt() reservedBytes!: number;
  @IsInt() quotaBytes!: number;
}

export class VrWeekView {
  @JSONSchema({ description: 'Sessions started since Monday 00:00 (business time zone)' }) @IsInt() count!: number;
  @IsInt() running!: number;
  @JSONSchema({ description: 'Distinct participants of those sessions' }) @IsInt() participants!: number;
}

const section = (what: string) =>
  JSONSchema({
    description: `${what}; null when the organisation does not use the module or the caller lacks the permission`,
  });

export class DashboardSummaryView {
  @IsDateString() generatedAt!: string;
  @IsString() timeZone!: string;
  @IsDateString() dayStart!: string;
  @IsDateString() dayEnd!: string;
  @IsDateString() weekStart!: string;
  @JSONSchema({ description: 'Modules in use by the organisation' })
  @IsIn(switchableModules, { each: true })
  modules!: string[];
  @section('Module core')
  @Nullable()
  @ValidateNested()
  @Type(() => AppointmentsTodayView)
  appointmentsToday!: AppointmentsTodayView | null;
  @section('Module core, permission core.customers.read')
  @Nullable()
  @ValidateNested()
  @Type(() => OpenTasksView)
  openTasks!: OpenTasksView | null;
  @section('Module core, permission core.invoices.read')
  @Nullable()
  @ValidateNested()
  @Type(() => UnpaidInvoicesView)
  unpaidInvoices!: UnpaidInvoicesView | null;
  @section('Module core, permission core.customers.read; every stage of every pipeline, in order')
  @Nullable()
  @ValidateNested({ each: true })
  @Type(() => StageDealsView)
  dealsByStage!: StageDealsView[] | null;
  @section('Module cloud, permission cloud.read')
  @Nullable()
  @ValidateNested()
  @Type(() => StorageUseView)
  storage!: StorageUseView | null;
  @section('Module vr, permission vr.reports.read')
  @Nullable()
  @ValidateNested()
  @Type(() => VrWeekView)
  vrSessionsThisWeek!: VrWeekView | null;

  static from(s: DashboardSummary): DashboardSummaryView {
    return {
      generatedAt: isoTime(s.generatedAt),
      timeZone: s.timeZone,
      dayStart: isoTime(s.dayStart),
      dayEnd: isoTime(s.dayEnd),
      weekStart: isoTime(s.weekStart),
      modules: s.modules,
      appointmentsToday: s.appointmentsToday,
      openTasks: s.openTasks,
      unpaidInvoices: s.unpaidInvoices,
      dealsByStage: s.dealsByStage,
      storage: s.storage,
      vrSessionsThisWeek: s.vrSessionsThisWeek,
    };
  }
}
