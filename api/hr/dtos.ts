import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  Min,
  NotEquals,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { IsCalendarDate, IsInstant, IsNumber, Length, MaxLength, PageQuery } from '../http/dtos';
import {
  CLOCK_TEXT_LENGTH,
  clockSources,
  correctionActions,
  punchKinds,
  type ClockSource,
  type CorrectionAction,
  type PunchKind,
} from '../../entities/hr/clock';
import { ACKNOWLEDGE_NOTE_LENGTH, complianceRules, type ComplianceRule } from '../../entities/hr/compliance';
import {
  EMPLOYEE_TEXT_LENGTHS,
  employeeStatuses,
  workTimeModes,
  type EmployeeStatus,
  type WorkTimeMode,
} from '../../entities/hr/employee';
import { workTimeModeDocs } from './views.docs';
import {
  halves,
  LEAVE_TEXT_LENGTHS,
  leaveCountings,
  leaveStatuses,
  type Half,
  type LeaveCounting,
  type LeaveStatus,
} from '../../entities/hr/leave';
import { FIRST_DATE, LAST_DATE } from '../../lib/calendar';
import { MAX_AVAILABILITY_DAYS } from '../../domain/hr/availability';
import { MAX_SCAN_DAYS } from '../../domain/hr/scanCompliance';
import { MAX_TIMESHEET_DAYS } from '../../domain/hr/timesheetRows';
import {
  COUNTING,
  createLeaveTypeAccrualDaysPerMonth,
  provisionEmployeeCandidateId,
  updateLeaveTypeArchived,
} from './dtos.docs';

/** Request bodies, queries and path parameters of the HR routes (/api/rh). Unknown fields are refused. */

/** A calendar date YYYY-MM-DD that exists (not 2026-02-30, see IsCalendarDate); `nullable`: null clears it. */
const dateField =
  (description: string, nullable = false) =>
  (target: object, key: string) => {
    JSONSchema({
      description: `${description} (${FIRST_DATE} to ${LAST_DATE})`,
      type: nullable ? ['string', 'null'] : 'string',
    })(target, key);
    IsCalendarDate()(target, key);
    // Bounded: reads look a day or two past a date, and year 10000 is no date PostgreSQL (or a string sort) takes.
    ValidateBy({
      name: 'isHrDate',
      validator: {
        validate: (v) => typeof v !== 'string' || (v >= FIRST_DATE && v <= LAST_DATE),
        defaultMessage: () => `${key} must be between ${FIRST_DATE} and ${LAST_DATE}`,
      },
    })(target, key);
  };
const instantField = (description: string) => (target: object, key: string) => {
  JSONSchema({ description, type: 'string', format: 'date-time' })(target, key);
  IsInstant()(target, key);
  MaxLength(40)(target, key);
};
const ZONE = { description: 'IANA time zone, e.g. Europe/Paris' };

export class CreateEmployeeBody {
  @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) firstName!: string;
  @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) lastName!: string;
  @IsOptional() @IsEmail() @MaxLength(EMPLOYEE_TEXT_LENGTHS.email) email?: string;
  @JSONSchema({ description: "The member's identity account (a member of the organisation; one employee per account)" })
  @IsOptional()
  @IsUUID()
  userId?: string;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.jobTitle) jobTitle?: string;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.department) department?: string;
  @JSONSchema({ description: `${ZONE.description}; default Europe/Paris` })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  timeZone?: string;
  @JSONSchema({ description: 'Contractual weekly hours (default 35)' })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(1)
  @Max(80)
  weeklyHours?: number;
  @IsOptional() @dateField('First day of work') hireDate?: string;
}

export class UpdateEmployeeBody {
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) firstName?: string;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) lastName?: string;
  @JSONSchema({ description: 'null clears it', type: ['string', 'null'] })
  @IsOptional()
  @IsEmail()
  @MaxLength(EMPLOYEE_TEXT_LENGTHS.email)
  email?: string | null;
  @JSONSchema({ description: 'null clears it', type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @Length(1, EMPLOYEE_TEXT_LENGTHS.jobTitle)
  jobTitle?: string | null;
  @JSONSchema({ description: 'null clears it', type: ['string', 'null'] })
  @IsOptional()
  @IsString()
  @Length(1, EMPLOYEE_TEXT_LENGTHS.department)
  department?: string | null;
  @JSONSchema(ZONE) @IsOptional() @IsString() @Length(1, 64) timeZone?: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(1) @Max(80) weeklyHours?: number;
  @IsOptional() @dateField('First day of work; null clears it', true) hireDate?: string | null;
  @IsOptional()
  @dateField(
    "Last day of work (a date in the employee's time zone): from the next day the employee has left. null clears it (the departure is cancelled)",
    true,
  )
  endDate?: string | null;
  @JSONSchema({
    description:
      "The employee's manager (another employee of the organisation), who decides the `manager` step of approval chains; null clears it",
    type: ['string', 'null'],
  })
  @IsOptional()
  @IsUUID()
  managerId?: string | null;
  @JSONSchema({
    description:
      "Whether the employee waives the days of fractionnement (L3141-19); null follows the organisation's default (GET /api/rh/settings)",
    type: ['boolean', 'null'],
  })
  @IsOptional()
  @IsBoolean()
  fractionnementWaived?: boolean | null;
  @JSONSchema({ description: workTimeModeDocs })
  @IsOptional()
  @IsIn(workTimeModes)
  workTimeMode?: WorkTimeMode;
  @JSONSchema({
    description:
      "The employee's yearly forfait in days (forfait_days mode; up to 235 when days of rest are given up by written agreement, L3121-59); null follows the organisation's (GET /api/rh/settings)",
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(235)
  forfaitDays?: number | null;
}

export class ProvisionEmployeeBody {
  @JSONSchema({ description: 'The organisation that hired the candidate' })
  @IsUUID()
  organizationId!: string;
  @JSONSchema({ description: provisionEmployeeCandidateId })
  @IsString()
  @Length(1, EMPLOYEE_TEXT_LENGTHS.candidateId)
  candidateId!: string;
  @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) firstName!: string;
  @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.name) lastName!: string;
  @IsEmail() @MaxLength(EMPLOYEE_TEXT_LENGTHS.email) email!: string;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.jobTitle) jobTitle?: string;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.department) department?: string;
  @JSONSchema(ZONE) @IsOptional() @IsString() @Length(1, 64) timeZone?: string;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) @Min(1) @Max(80) weeklyHours?: number;
  @IsOptional() @dateField('First day of work') hireDate?: string;
  @JSONSchema({
    description: 'Further bootstrap fields of the hire (start checklist, equipment ...), kept as given',
    type: 'object',
    additionalProperties: true,
  })
  @IsOptional()
  @IsObject()
  bootstrap?: Record<string, unknown>;
}

export class ListEmployeesQuery extends PageQuery {
  @IsOptional() @IsIn(employeeStatuses) status?: EmployeeStatus;
  @IsOptional() @IsString() @Length(1, EMPLOYEE_TEXT_LENGTHS.department) department?: string;
  @JSONSchema({ description: 'Part of the first name, last name or e-mail (case-insensitive)' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  q?: string;
  @IsOptional() @IsUUID() userId?: string;
}

export class ScheduleSlotBody {
  @JSONSchema({ description: 'ISO week day: 1 Monday ... 7 Sunday' })
  @IsInt()
  @Min(1)
  @Max(7)
  weekday!: number;
  @JSONSchema({ description: 'Local start time HH:mm' }) @IsString() @MaxLength(5) start!: string;
  @JSONSchema({ description: 'Local end time HH:mm, after start' }) @IsString() @MaxLength(5) end!: string;
}

export class SetScheduleBody {
  @dateField('Local date from which this schedule applies; a version with the same date is replaced')
  effectiveFrom!: string;
  @JSONSchema({ description: `${ZONE.description}; default the employee's` })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  timeZone?: string;
  @JSONSchema({
    description: 'Working periods of the week (at most 50; slots of one day may not overlap). Empty: no working day',
  })
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => ScheduleSlotBody)
  slots!: ScheduleSlotBody[];
}

export class AvailabilityQuery {
  @IsOptional() @instantField('Start of the range (ISO 8601 instant); default now') from?: string;
  @IsOptional()
  @instantField(
    `End of the range (ISO 8601 instant), at most ${MAX_AVAILABILITY_DAYS} days after from; default 7 days after from`,
  )
  to?: string;
}

export class WeekCountersQuery {
  @IsOptional()
  @dateField('Counters of the weeks from the one holding this date; default 12 weeks before to')
  from?: string;
  @IsOptional() @dateField('Counters of the weeks up to the one holding this date; default today') to?: string;
}

export class DelegateApprovalsBody {
  @JSONSchema({ description: "The member who decides in the approver's name" }) @IsUUID() toUserId!: string;
  @dateField('First local day (Europe/Paris) of the delegation') startsOn!: string;
  @dateField('Last local day, inclusive (at most 366 days after startsOn)') endsOn!: string;
  @JSONSchema({ description: "The approver; default the caller (another member's: hr.employees.manage)" })
  @IsOptional()
  @IsUUID()
  fromUserId?: string;
}

export class ForfaitYearQuery {
  @JSONSchema({ description: "The calendar year; default the current one in the employee's zone" })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1900)
  @Max(2200)
  year?: number;
}

export class CreateLeaveTypeBody {
  @JSONSchema({ description: 'Unique key in the organisation (paid, rtt, sick and unpaid are the defaults)' })
  @Matches(/^[a-z0-9][a-z0-9_-]{0,39}$/, { message: 'code must be 1-40 lowercase letters, digits, "_" or "-"' })
  code!: string;
  @IsString() @Length(1, LEAVE_TEXT_LENGTHS.name) name!: string;
  @IsBoolean() paid!: boolean;
  @JSONSchema({ description: 'Counted in the leave ledger: requests hold days from the balance' })
  @IsBoolean()
  tracksBalance!: boolean;
  @JSONSchema({ description: createLeaveTypeAccrualDaysPerMonth })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  @Max(31)
  accrualDaysPerMonth?: number;
  @JSONSchema({ description: 'Credited by the RTT generation (needs tracksBalance)' })
  @IsOptional()
  @IsBoolean()
  rtt?: boolean;
  @JSONSchema({
    description: `${COUNTING}. Default: ouvrables for a type accruing more than 25 days a year, else ouvres`,
  })
  @IsOptional()
  @IsIn(leaveCountings)
  counting?: LeaveCounting;
}

export class UpdateLeaveTypeBody {
  @IsOptional() @IsString() @Length(1, LEAVE_TEXT_LENGTHS.name) name?: string;
  @IsOptional() @IsBoolean() paid?: boolean;
  @JSONSchema({ description: 'Counted in the leave ledger from now on (requests filed before keep what they hold)' })
  @IsOptional()
  @IsBoolean()
  tracksBalance?: boolean;
  @JSONSchema({
    description: "Days credited each month from the next accrual, in the type's counting (earlier accruals stay)",
  })
  @IsOptional()
  @IsNumber({ maxDecimalPlaces: 2 })
  @Min(0)
  @Max(31)
  accrualDaysPerMonth?: number;
  @IsOptional() @IsBoolean() rtt?: boolean;
  @JSONSchema({ description: `${COUNTING}. Applies to requests filed from now on` })
  @IsOptional()
  @IsIn(leaveCountings)
  counting?: LeaveCounting;
  @JSONSchema({ description: updateLeaveTypeArchived })
  @IsOptional()
  @IsBoolean()
  archived?: boolean;
}

export class FileLeaveRequestBody {
  @IsUUID() leaveTypeId!: string;
  @dateField('First day') startDate!: string;
  @JSONSchema({ description: 'afternoon: the first day counts from noon (a half day); default morning' })
  @IsOptional()
  @IsIn(halves)
  startHalf?: Half;
  @dateField('Last day') endDate!: string;
  @JSONSchema({ description: 'morning: the last day ends at noon (a half day); default afternoon' })
  @IsOptional()
  @IsIn(halves)
  endHalf?: Half;
  @IsOptional() @IsString() @MaxLength(LEAVE_TEXT_LENGTHS.text) comment?: string;
}

export class ListLeaveRequestsQuery extends PageQuery {
  @IsOptional() @IsUUID() employeeId?: string;
  @IsOptional() @IsIn(leaveStatuses) status?: LeaveStatus;
  @IsOptional() @IsUUID() leaveTypeId?: string;
  @IsOptional() @dateField('Requests ending on or after this date') from?: string;
  @IsOptional() @dateField('Requests starting on or before this date') to?: string;
}

export class LeaveDecisionBody {
  @IsIn(['grant', 'refuse']) decision!: 'grant' | 'refuse';
  @JSONSchema({ description: 'Why; required to refuse' })
  @IsOptional()
  @IsString()
  @MaxLength(LEAVE_TEXT_LENGTHS.text)
  reason?: string;
}

export class LeaveCancellationBody {
  @JSONSchema({ description: 'Why (kept on the request and its ledger movement)' })
  @IsOptional()
  @IsString()
  @MaxLength(LEAVE_TEXT_LENGTHS.text)
  reason?: string;
}

export class LeaveAdjustmentBody {
  @IsUUID() leaveTypeId!: string;
  @JSONSchema({ description: 'Signed days in half days (credit positive, debit negative), not zero' })
  @IsNumber()
  @Min(-366)
  @Max(366)
  @NotEquals(0)
  @ValidateBy({
    name: 'isHalfDays',
    validator: {
      validate: (v) => Number.isInteger(Number(v) * 2),
      defaultMessage: () => 'days must be a multiple of 0.5',
    },
  })
  days!: number;
  @JSONSchema({ description: 'Why (shown in the ledger)' })
  @IsString()
  @Length(1, 500)
  reason!: string;
}

export class RttGenerateBody {
  @JSONSchema({ description: 'Month to generate, YYYY-MM (default: the previous month)' })
  @IsOptional()
  @Matches(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'period must be a month YYYY-MM' })
  period?: string;
}

export class ClockEventBody {
  @IsIn(punchKinds) kind!: PunchKind;
  @JSONSchema({
    description: "The employee punching: default the caller's own record; another employee needs hr.employees.manage",
  })
  @IsOptional()
  @IsUUID()
  employeeId?: string;
  @IsOptional()
  @instantField(
    'When, for a punch entered by a manager (hr.employees.manage; source manual, note required). Otherwise the server time is the punch time.',
  )
  at?: string;
  @JSONSchema({ description: 'Where the punch comes from (default web; manual when `at` is given)' })
  @IsOptional()
  @IsIn(clockSources)
  source?: ClockSource;
  @JSONSchema({ description: `${ZONE.description} the punch was made in; default the employee's` })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  timeZone?: string;
  @IsOptional() @IsString() @MaxLength(CLOCK_TEXT_LENGTH) note?: string;
}

export class ListClockEventsQuery extends PageQuery {
  @IsOptional() @IsUUID() employeeId?: string;
  @IsOptional() @instantField('Punches at or after this instant (the original time)') from?: string;
  @IsOptional() @instantField('Punches before this instant (the original time)') to?: string;
}

export class CorrectionBody {
  @JSONSchema({ description: 'amend: the event takes place at `at` and/or is of `kind`; void: it is cancelled' })
  @IsIn(correctionActions)
  action!: CorrectionAction;
  @IsOptional() @instantField('Effective time (amend)') at?: string;
  @IsOptional() @IsIn(punchKinds) kind?: PunchKind;
  @IsString() @Length(3, CLOCK_TEXT_LENGTH) reason!: string;
}

export class ComplianceRulesBody {
  @JSONSchema({
    description: 'Most work in a day, minutes (null: rule off). Default 600 (10 h)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(1440)
  maxDailyMinutes?: number | null;
  @JSONSchema({ description: 'Most work in an ISO week, minutes. Default 2880 (48 h)', type: ['integer', 'null'] })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(10080)
  maxWeeklyMinutes?: number | null;
  @JSONSchema({
    description: 'Most average weekly work over averageWeeks weeks, minutes. Default 2640 (44 h)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(10080)
  maxAverageWeeklyMinutes?: number | null;
  @JSONSchema({ description: 'Weeks of the average (default 12)' })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(52)
  averageWeeks?: number;
  @JSONSchema({
    description: 'Least rest between two working days, minutes. Default 660 (11 h)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(1440)
  minDailyRestMinutes?: number | null;
  @JSONSchema({
    description: 'Least uninterrupted rest in each ISO week, minutes. Default 2100 (35 h)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10080)
  minWeeklyRestMinutes?: number | null;
  @JSONSchema({
    description: 'A day with this much work needs a break, minutes. Default 360 (6 h)',
    type: ['integer', 'null'],
  })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(1440)
  breakAfterMinutes?: number | null;
  @JSONSchema({ description: 'Length of that break, minutes. Default 20' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(240)
  minBreakMinutes?: number;
}

export class ComplianceScanBody {
  @IsOptional() @IsUUID() employeeId?: string;
  @dateField('First local day to scan') from!: string;
  @dateField(`Last local day to scan (at most ${MAX_SCAN_DAYS} days after from)`) to!: string;
}

export class ListAlertsQuery extends PageQuery {
  @IsOptional() @IsUUID() employeeId?: string;
  @IsOptional() @IsIn(complianceRules) rule?: ComplianceRule;
  @JSONSchema({ description: 'true: acknowledged alerts only; false: open ones only' })
  @IsOptional()
  @IsIn(['true', 'false'])
  acknowledged?: 'true' | 'false';
  @JSONSchema({ description: 'true: alerts a later scan no longer found (resolvedAt set); false: standing ones only' })
  @IsOptional()
  @IsIn(['true', 'false'])
  resolved?: 'true' | 'false';
}

export class AcknowledgeBody {
  @IsOptional() @IsString() @MaxLength(ACKNOWLEDGE_NOTE_LENGTH) note?: string;
}

export class TimesheetQuery {
  @JSONSchema({ description: 'One employee; every employee when absent' })
  @IsOptional()
  @IsUUID()
  employeeId?: string;
  @dateField('First local day') from!: string;
  @dateField(`Last local day (at most ${MAX_TIMESHEET_DAYS} days after from)`) to!: string;
  @JSONSchema({ description: 'csv (default) or json' })
  @IsOptional()
  @IsIn(['csv', 'json'])
  format?: 'csv' | 'json';
}

export class HolidaysQuery {
  @Type(() => Number) @IsInt() @Min(1900) @Max(2200) year!: number;
}
