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
  @IsBoolean()
  customised!: boolean;
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
  @JSONSchema({
    description:
      'The local day (YYYY-MM-DD) or ISO week (YYYY-Www) in breach; for annual_contingent the year and the share of the contingent passed (2026-080, 2026-090, 2026-100), for forfait_days the year',
  })
  @IsString()
  periodKey!: string;
  @JSONSchema({ description: 'What was measured, in minutes (for forfait_days: days worked, a half day rounded up)' })
  @IsInt()
  measuredMinutes!: number;
  @JSONSchema({ description: 'The limit, in minutes (for forfait_days: the forfait in days)' })
  @IsInt()
  limitMinutes!: number;
  @IsString() detail!: string;
  @IsDateString() createdAt!: string;
  @Nullable() @IsDateString() acknowledgedAt!: string | null;
  @Nullable() @IsUUID() acknowledgedBy!: string | null;
  @Nullable() @IsString() acknowledgeNote!: string | null;
  @JSONSchema({ description: 'When a later scan no longer found the breach; null while it stands' })
  @Nullable()
  @IsDateString()
  resolvedAt!: string | null;

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
      resolvedAt: iso(a.resolvedAt),
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

/** The JSON form of the timesheet export (format=json): written row by row, so described here, not by a class. */
export const timesheetJsonSchema = {
  type: 'object',
  required: ['from', 'to', 'rows'],
  properties: {
    from: { type: 'string', format: 'date' },
    to: { type: 'string', format: 'date' },
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['employeeId', 'lastName', 'firstName', 'date', 'start', 'end', 'minutes', 'corrected', 'anomaly'],
        properties: {
          employeeId: { type: 'string', format: 'uuid' },
          lastName: { type: 'string' },
          firstName: { type: 'string' },
          date: { type: 'string', format: 'date', description: 'Local date the interval starts on' },
          start: { type: 'string', description: 'Local time with offset, e.g. 2026-03-02T08:00:00+01:00' },
          end: { type: 'string', description: 'Local time with offset; empty for a missing exit' },
          minutes: { type: 'integer' },
          corrected: { type: 'boolean', description: 'A punch of the interval was corrected' },
          anomaly: { type: 'string', enum: ['', 'missing_exit', 'missing_entry'] },
        },
      },
    },
  },
};
