import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsIn, IsInt, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { Nullable } from '../http/nullable';
import { complianceRules, type HrComplianceAlert } from '../../entities/hr/compliance';
import type { StoredRuleSet } from '../../domain/hr/complianceRules';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';

/** Presenters of the compliance rule set and alerts. */

export class ComplianceRulesView {
  @JSONSchema({ description: 'False while the organisation uses the French defaults' })
  @IsBoolean() customised!: boolean;
  @Nullable() @IsInt() maxDailyMinutes!: number | null;
  @Nullable() @IsInt() maxWeeklyMinutes!: number | null;
  @Nullable() @IsInt() maxAverageWeeklyMinutes!: number | null;
  @IsInt() averageWeeks!: number;
  @Nullable() @IsInt() minDailyRestMinutes!: number | null;
  @Nullable() @IsInt() minWeeklyRestMinutes!: number | null;
  @Nullable() @IsInt() breakAfterMinutes!: number | null;
  @IsInt() minBreakMinutes!: number;
  @Nullable() @IsDateString() updatedAt!: string | null;
  @Nullable() @IsUUID() updatedBy!: string | null;

  static from(s: StoredRuleSet): ComplianceRulesView {
    return { customised: s.customised, ...s.rules, updatedAt: iso(s.updatedAt), updatedBy: s.updatedBy };
  }
}

export class ComplianceAlertView {
  @IsUUID() id!: string;
  @IsUUID() employeeId!: string;
  @IsIn(complianceRules) rule!: string;
  @JSONSchema({ description: 'The local day (YYYY-MM-DD) or ISO week (YYYY-Www) in breach' })
  @IsString() periodKey!: string;
  @IsInt() measuredMinutes!: number;
  @IsInt() limitMinutes!: number;
  @IsString() detail!: string;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() acknowledgedAt!: string | null;
  @Nullable() @IsUUID() acknowledgedBy!: string | null;
  @Nullable() @IsString() acknowledgeNote!: string | null;

  static from(a: Lean<HrComplianceAlert>): ComplianceAlertView {
    return {
      id: a.id,
      employeeId: a.employeeId,
      rule: a.rule,
      periodKey: a.periodKey,
      measuredMinutes: a.measuredMinutes,
      limitMinutes: a.limitMinutes,
      detail: a.detail,
      createdAt: isoTime(a.createdAt),
      acknowledgedAt: iso(a.acknowledgedAt),
      acknowledgedBy: a.acknowledgedBy ?? null,
      acknowledgeNote: a.acknowledgeNote ?? null,
    };
  }
}

export class ComplianceAlertPageView {
  @ValidateNested({ each: true }) @Type(() => ComplianceAlertView) items!: ComplianceAlertView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<HrComplianceAlert>>): ComplianceAlertPageView {
    return mapPage(page, ComplianceAlertView.from);
  }
}

export class ScanJobView {
  @IsString() jobId!: string;
}
