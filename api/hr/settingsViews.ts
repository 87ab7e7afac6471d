import { IsBoolean, IsDateString, IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { HrSettingsValues } from '../../domain/hr/settings';
import { Nullable } from '../http/nullable';
import { isoTime } from '../http/present';
import { prose } from '../http/docs';

/** The body and answer of the HR settings routes. */

const docs = {
  fractionnement: prose`
    Whether employees waive the days of fractionnement (L3141-19: 1 or 2 extra days when part of the main leave is
    taken outside 1 May - 31 October) unless their own record says otherwise (PATCH /api/rh/employees/{id},
    fractionnementWaived). false (the default) credits them.
  `,
  firstTier: prose`
    Minutes of overtime a week at the first rate, counted from the legal 35 h (L3121-33 lets an agreement set the
    tiers; 480, the 36th to the 43rd hour, by default). Weeks closed after an edit count with it.
  `,
  firstRate: 'Increase of the first tier, in percent (25 by default; an agreement may not go below 10: L3121-33)',
  secondRate: 'Increase beyond the first tier, in percent (50 by default; at least 10)',
  replacementRest: prose`
    Overtime compensated by repos compensateur de remplacement instead of pay (L3121-37): week counters give the
    rest earned (each minute with its increase), and that overtime does not count against the annual contingent.
  `,
  contingent: prose`
    The annual contingent of overtime in minutes (L3121-30; 13200, 220 h, by default: D3121-24). Closing a week
    raises an \`annual_contingent\` compliance alert when an employee's overtime of the calendar year passes 80 %,
    90 % and 100 % of it.
  `,
  forfait: prose`
    The yearly forfait in days of employees au forfait jours who have none of their own (L3121-64: at most 218, the
    default).
  `,
};

export class HrSettingsBody {
  @JSONSchema({ description: docs.fractionnement }) @IsOptional() @IsBoolean() fractionnementWaivedByDefault?: boolean;
  @JSONSchema({ description: docs.firstTier })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(7800)
  overtimeFirstTierMinutes?: number;
  @JSONSchema({ description: docs.firstRate }) @IsOptional() @IsInt() @Min(10) @Max(300) overtimeFirstRate?: number;
  @JSONSchema({ description: docs.secondRate }) @IsOptional() @IsInt() @Min(10) @Max(300) overtimeSecondRate?: number;
  @JSONSchema({ description: docs.replacementRest }) @IsOptional() @IsBoolean() replacementRest?: boolean;
  @JSONSchema({ description: docs.contingent })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(240000)
  annualContingentMinutes?: number;
  @JSONSchema({ description: docs.forfait }) @IsOptional() @IsInt() @Min(1) @Max(218) forfaitDays?: number;
}

export class HrSettingsView {
  @JSONSchema({ description: docs.fractionnement }) @IsBoolean() fractionnementWaivedByDefault!: boolean;
  @JSONSchema({ description: docs.firstTier }) @IsInt() overtimeFirstTierMinutes!: number;
  @JSONSchema({ description: docs.firstRate }) @IsInt() overtimeFirstRate!: number;
  @JSONSchema({ description: docs.secondRate }) @IsInt() overtimeSecondRate!: number;
  @JSONSchema({ description: docs.replacementRest }) @IsBoolean() replacementRest!: boolean;
  @JSONSchema({ description: docs.contingent }) @IsInt() annualContingentMinutes!: number;
  @JSONSchema({ description: docs.forfait }) @IsInt() forfaitDays!: number;
  @JSONSchema({ description: 'Last edit; null while the defaults apply' })
  @Nullable()
  @IsDateString()
  updatedAt!: string | null;
  @Nullable() @IsUUID() updatedBy!: string | null;

  static from(s: HrSettingsValues): HrSettingsView {
    return {
      fractionnementWaivedByDefault: s.fractionnementWaivedByDefault,
      overtimeFirstTierMinutes: s.overtimeFirstTierMinutes,
      overtimeFirstRate: s.overtimeFirstRate,
      overtimeSecondRate: s.overtimeSecondRate,
      replacementRest: s.replacementRest,
      annualContingentMinutes: s.annualContingentMinutes,
      forfaitDays: s.forfaitDays,
      updatedAt: s.updatedAt ? isoTime(s.updatedAt) : null,
      updatedBy: s.updatedBy,
    };
  }
}
