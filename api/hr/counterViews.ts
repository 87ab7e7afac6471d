import { Type } from 'class-transformer';
import { IsBoolean, IsDateString, IsInt, IsNumber, IsString, IsUUID, ValidateNested } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import type { HrWeekCounter } from '../../entities/hr/timeCounter';
import type { Lean } from '../../lib/lean';
import { isoTime } from '../http/present';
import type { ForfaitYearValues } from '../../domain/hr/getForfaitYear';
import { replacementRestDocs } from './counterViews.docs';

/** The answers of the time counter routes. */

export class WeekCounterView {
  @JSONSchema({ description: 'Monday of the ISO week (local)', format: 'date' }) @IsDateString() week!: string;
  @JSONSchema({ description: 'Minutes worked (effective punches)' }) @IsInt() minutes!: number;
  @JSONSchema({ description: 'Of them, between 21:00 and 06:00 local' }) @IsInt() nightMinutes!: number;
  @JSONSchema({ description: 'Of them, on the Sunday' }) @IsInt() sundayMinutes!: number;
  @JSONSchema({ description: "Minutes of the week's schedule (public holidays excepted)" })
  @IsInt()
  scheduledMinutes!: number;
  @JSONSchema({ description: 'Overtime minutes at the first rate (+25 %: the 36th to the 43rd hour)' })
  @IsInt()
  overtimeFirstMinutes!: number;
  @JSONSchema({ description: 'Overtime minutes at the second rate (+50 %: beyond the 43rd hour)' })
  @IsInt()
  overtimeSecondMinutes!: number;
  @JSONSchema({ description: replacementRestDocs }) @IsInt() replacementRestMinutes!: number;
  @JSONSchema({ description: 'One of the week’s intervals came from a corrected punch' })
  @IsBoolean()
  corrected!: boolean;
  @JSONSchema({ description: 'When the week was closed' }) @IsDateString() closedAt!: string;

  static from(c: Lean<HrWeekCounter>): WeekCounterView {
    return {
      week: c.week,
      minutes: c.minutes,
      nightMinutes: c.nightMinutes,
      sundayMinutes: c.sundayMinutes,
      scheduledMinutes: c.scheduledMinutes,
      overtimeFirstMinutes: c.overtimeFirstMinutes,
      overtimeSecondMinutes: c.overtimeSecondMinutes,
      replacementRestMinutes: c.replacementRestMinutes,
      corrected: c.corrected,
      closedAt: isoTime(c.createdAt),
    };
  }
}

export class WeekCountersView {
  @IsUUID() employeeId!: string;
  @ValidateNested({ each: true }) @Type(() => WeekCounterView) items!: WeekCounterView[];
}

export class ForfaitMonthView {
  @JSONSchema({ description: 'YYYY-MM' }) @IsString() month!: string;
  @IsNumber() daysWorked!: number;
}

export class ForfaitYearView {
  @IsUUID() employeeId!: string;
  @IsInt() year!: number;
  @JSONSchema({ description: 'Monday to Friday of the year within the employment, public holidays excepted' })
  @IsInt()
  workableDays!: number;
  @JSONSchema({ description: 'The forfait of the year, pro rata of a partial year (to the half day)' })
  @IsNumber()
  forfaitDays!: number;
  @JSONSchema({ description: 'Paid leave of the year on the same pro rata (25 days for a full year)' })
  @IsNumber()
  paidLeaveDays!: number;
  @JSONSchema({ description: 'Days of rest the forfait leaves: workable - paid leave - forfait, at least 0' })
  @IsNumber()
  restDays!: number;
  @JSONSchema({ description: 'Days worked so far (a day under 4 h counts half)' }) @IsNumber() daysWorked!: number;
  @JSONSchema({ description: 'forfaitDays - daysWorked (negative once passed)' }) @IsNumber() remainingDays!: number;
  @ValidateNested({ each: true }) @Type(() => ForfaitMonthView) months!: ForfaitMonthView[];

  static from(v: ForfaitYearValues): ForfaitYearView {
    return v;
  }
}
