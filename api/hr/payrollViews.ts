import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsDateString,
  IsIn,
  IsInt,
  IsOptional,
  IsUUID,
  Matches,
  ValidateNested,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { PAYROLL_CODE_LENGTH, type PayrollCodeMapping } from '../../entities/hr/payroll';
import type { ClosedMonthValues } from '../../domain/hr/closePayrollMonth';
import type { PayrollMonthState } from '../../domain/hr/listPayrollMonths';
import type { PayrollCodesValues } from '../../domain/hr/payrollCodes';
import { Nullable } from '../http/nullable';
import { isoTime } from '../http/present';

/** The bodies and answers of the payroll routes. */

const CODE = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,${PAYROLL_CODE_LENGTH - 1}}$`);
const CODE_MESSAGE = `must be 1-${PAYROLL_CODE_LENGTH} letters, digits, "_", "." or "-" (starting with a letter or digit)`;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** Longest list of mapped leave types. */
export const MAX_MAPPED_LEAVE_TYPES = 50;

const code = (description: string) => (target: object, key: string) => {
  JSONSchema({ description: `${description}; null or absent: not exported` })(target, key);
  IsOptional()(target, key);
  Matches(CODE, { message: `${key} ${CODE_MESSAGE}` })(target, key);
};

export class PayrollMonthParams {
  @JSONSchema({ description: 'The month, YYYY-MM' })
  @Matches(MONTH, { message: 'month must be a month YYYY-MM' })
  month!: string;
}

export class PayrollMonthsQuery {
  @JSONSchema({ description: 'First month, YYYY-MM (default: eleven months before `to`)' })
  @IsOptional()
  @Matches(MONTH, { message: 'from must be a month YYYY-MM' })
  from?: string;

  @JSONSchema({ description: 'Last month, YYYY-MM (default: the current month, Europe/Paris)' })
  @IsOptional()
  @Matches(MONTH, { message: 'to must be a month YYYY-MM' })
  to?: string;
}

export class PayrollExportQuery {
  @JSONSchema({ description: 'csv (default) or json' })
  @IsOptional()
  @IsIn(['csv', 'json'])
  format?: 'csv' | 'json';
}

export class PayrollTimeCodes {
  @code('Hours worked (effective punches)') @Nullable() workedHours?: string | null;
  @code('Overtime hours at the first rate (+25 % by default: the 36th to the 43rd hour of a week)')
  @Nullable()
  overtimeFirstRateHours?: string | null;
  @code('Overtime hours at the second rate (+50 % by default: beyond the 43rd hour)')
  @Nullable()
  overtimeSecondRateHours?: string | null;
  @code('Night hours (21:00 - 06:00 local)') @Nullable() nightHours?: string | null;
  @code('Sunday hours') @Nullable() sundayHours?: string | null;
}

export class PayrollLeaveTypeCodes {
  @JSONSchema({ description: 'A leave type of the organisation (GET /api/rh/leave-types)' })
  @IsUUID()
  leaveTypeId!: string;
  @code('Absence days of the month, in the type’s counting') @Nullable() daysCode?: string | null;
  @code('Absence hours of the month (the schedule’s hours of those days)') @Nullable() hoursCode?: string | null;
  @code('Balance at the month’s end, in days') @Nullable() balanceCode?: string | null;
}

export class PayrollCodesBody {
  @JSONSchema({ description: 'Codes of the time variables' })
  @IsOptional()
  @ValidateNested()
  @Type(() => PayrollTimeCodes)
  time?: PayrollTimeCodes;
  @JSONSchema({
    description: `Codes of leave types' variables (each type at most once; at most ${MAX_MAPPED_LEAVE_TYPES})`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MAPPED_LEAVE_TYPES)
  @ValidateNested({ each: true })
  @Type(() => PayrollLeaveTypeCodes)
  leaveTypes?: PayrollLeaveTypeCodes[];
}

/** The body as a full mapping: what is absent is not mapped. */
export function mappingOf(body: PayrollCodesBody): PayrollCodeMapping {
  const t = body.time ?? {};
  return {
    time: {
      workedHours: t.workedHours ?? null,
      overtimeFirstRateHours: t.overtimeFirstRateHours ?? null,
      overtimeSecondRateHours: t.overtimeSecondRateHours ?? null,
      nightHours: t.nightHours ?? null,
      sundayHours: t.sundayHours ?? null,
    },
    leaveTypes: (body.leaveTypes ?? []).map((l) => ({
      leaveTypeId: l.leaveTypeId,
      daysCode: l.daysCode ?? null,
      hoursCode: l.hoursCode ?? null,
      balanceCode: l.balanceCode ?? null,
    })),
  };
}

export class PayrollTimeCodesView {
  @Nullable() @Matches(CODE) workedHours!: string | null;
  @Nullable() @Matches(CODE) overtimeFirstRateHours!: string | null;
  @Nullable() @Matches(CODE) overtimeSecondRateHours!: string | null;
  @Nullable() @Matches(CODE) nightHours!: string | null;
  @Nullable() @Matches(CODE) sundayHours!: string | null;
}

export class PayrollLeaveTypeCodesView {
  @IsUUID() leaveTypeId!: string;
  @Nullable() @Matches(CODE) daysCode!: string | null;
  @Nullable() @Matches(CODE) hoursCode!: string | null;
  @Nullable() @Matches(CODE) balanceCode!: string | null;
}

export class PayrollCodesView {
  @ValidateNested() @Type(() => PayrollTimeCodesView) time!: PayrollTimeCodesView;
  @ValidateNested({ each: true }) @Type(() => PayrollLeaveTypeCodesView) leaveTypes!: PayrollLeaveTypeCodesView[];
  @JSONSchema({ description: 'Last edit; null while nothing was mapped' })
  @Nullable()
  @IsDateString()
  updatedAt!: string | null;
  @Nullable() @IsUUID() updatedBy!: string | null;

  static from(v: PayrollCodesValues): PayrollCodesView {
    return {
      time: { ...v.codes.time },
      leaveTypes: v.codes.leaveTypes.map((l) => ({
        leaveTypeId: l.leaveTypeId,
        daysCode: l.daysCode,
        hoursCode: l.hoursCode,
        balanceCode: l.balanceCode,
      })),
      updatedAt: v.updatedAt ? isoTime(v.updatedAt) : null,
      updatedBy: v.updatedBy,
    };
  }
}

export class ClosedMonthView {
  @JSONSchema({ description: 'YYYY-MM' }) @Matches(MONTH) month!: string;
  @IsDateString() closedAt!: string;
  @Nullable() @IsUUID() closedBy!: string | null;
  @JSONSchema({ description: 'Employees whose summary was frozen' }) @IsInt() employees!: number;

  static from(v: ClosedMonthValues): ClosedMonthView {
    return { month: v.month, closedAt: isoTime(v.closedAt), closedBy: v.closedBy, employees: v.employees };
  }
}

export class PayrollMonthView {
  @JSONSchema({ description: 'YYYY-MM' }) @Matches(MONTH) month!: string;
  @JSONSchema({ description: 'open: its last ISO week has not ended; closable: it has, not closed; closed: frozen' })
  @IsIn(['open', 'closable', 'closed'])
  state!: 'open' | 'closable' | 'closed';
  @JSONSchema({ description: 'When closing becomes possible (the Monday after its last week, 12:00 UTC)' })
  @IsDateString()
  closableAt!: string;
  @Nullable() @IsDateString() closedAt!: string | null;
  @Nullable() @IsUUID() closedBy!: string | null;
  @JSONSchema({ description: 'Employees whose summary was frozen (closed months)' })
  @Nullable()
  @IsInt()
  employees!: number | null;

  static from(v: PayrollMonthState): PayrollMonthView {
    return {
      month: v.month,
      state: v.state,
      closableAt: isoTime(v.closableAt),
      closedAt: v.closedAt ? isoTime(v.closedAt) : null,
      closedBy: v.closedBy,
      employees: v.employees,
    };
  }
}

export class PayrollMonthListView {
  @ValidateNested({ each: true }) @Type(() => PayrollMonthView) items!: PayrollMonthView[];
}

const variableSchema = {
  type: 'object',
  required: ['variable', 'leaveType', 'code', 'value', 'unit'],
  properties: {
    variable: {
      type: 'string',
      enum: [
        'workedHours',
        'overtimeFirstRateHours',
        'overtimeSecondRateHours',
        'nightHours',
        'sundayHours',
        'leaveDays',
        'leaveHours',
        'leaveBalance',
      ],
    },
    leaveType: { type: 'string', description: "The leave type's code (leave variables); empty otherwise" },
    code: { type: 'string', description: "The payroll software's code (frozen at closing)" },
    value: { type: 'number', description: 'Hours or days, 2 decimals' },
    unit: { type: 'string', enum: ['hours', 'days'] },
  },
};

/** The JSON export's schema. */
export const payrollJsonSchema = {
  type: 'object',
  required: ['month', 'closedAt', 'employees'],
  properties: {
    month: { type: 'string', description: 'YYYY-MM' },
    closedAt: { type: 'string', format: 'date-time' },
    employees: {
      type: 'array',
      items: {
        type: 'object',
        required: [
          'employeeId',
          'lastName',
          'firstName',
          'workedMinutes',
          'nightMinutes',
          'sundayMinutes',
          'overtimeFirstMinutes',
          'overtimeSecondMinutes',
          'absences',
          'balances',
          'variables',
        ],
        properties: {
          employeeId: { type: 'string', format: 'uuid' },
          lastName: { type: 'string', description: 'As at closing' },
          firstName: { type: 'string', description: 'As at closing' },
          workedMinutes: { type: 'integer' },
          nightMinutes: { type: 'integer' },
          sundayMinutes: { type: 'integer' },
          overtimeFirstMinutes: { type: 'integer' },
          overtimeSecondMinutes: { type: 'integer' },
          absences: {
            type: 'array',
            items: {
              type: 'object',
              required: ['leaveTypeId', 'code', 'days', 'minutes'],
              properties: {
                leaveTypeId: { type: 'string', format: 'uuid' },
                code: { type: 'string' },
                days: { type: 'number' },
                minutes: { type: 'number' },
              },
            },
          },
          balances: {
            type: 'array',
            items: {
              type: 'object',
              required: ['leaveTypeId', 'code', 'days'],
              properties: {
                leaveTypeId: { type: 'string', format: 'uuid' },
                code: { type: 'string' },
                days: { type: 'number' },
              },
            },
          },
          variables: { type: 'array', items: variableSchema },
        },
      },
    },
  },
};
