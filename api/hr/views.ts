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
import { Nullable } from '../http/nullable';
import { ApprovalStepView } from './approvalViews';
import { employeeStatuses, workTimeModes, type HrEmployee, type WorkTimeMode } from '../../entities/hr/employee';
import {
  halves,
  leaveCountings,
  leaveStatuses,
  ledgerKinds,
  type HrLeaveLedgerEntry,
  type HrLeaveRequest,
  type HrLeaveType,
} from '../../entities/hr/leave';
import type { HrSchedule } from '../../entities/hr/schedule';
import type { Availability } from '../../domain/hr/availability';
import type { EmployeeSchedules } from '../../domain/hr/getSchedule';
import type { LeaveBalance } from '../../domain/hr/getLeaveBalance';
import { paidLeaveRules } from '../../domain/hr/paidLeave';
import type { PublicHoliday } from '../../domain/hr/publicHolidays';
import { weeklyMinutes } from '../../domain/hr/schedules';
import type { Lean } from '../../lib/lean';
import { mapPage, type Page } from '../../lib/pagination';
import { iso, isoTime } from '../http/present';
import { leaveTypeCounting, workTimeModeDocs } from './views.docs';

/** Presenters of the HR routes: employees, schedules, availability, leave. */

export class EmployeeView {
  @IsUUID() id!: string;
  @JSONSchema({
    description: 'The identity account; a provisional id (userProvisional) until the person has an account',
  })
  @Nullable()
  @IsUUID()
  userId!: string | null;
  @IsBoolean() userProvisional!: boolean;
  @JSONSchema({ description: 'The recruitment candidate it was provisioned from' })
  @Nullable()
  @IsString()
  candidateId!: string | null;
  @IsString() firstName!: string;
  @IsString() lastName!: string;
  @Nullable() @IsString() email!: string | null;
  @Nullable() @IsString() jobTitle!: string | null;
  @Nullable() @IsString() department!: string | null;
  @IsString() timeZone!: string;
  @IsNumber() weeklyHours!: number;
  @JSONSchema({ format: 'date' }) @Nullable() @IsString() hireDate!: string | null;
  @JSONSchema({ format: 'date' }) @Nullable() @IsString() endDate!: string | null;
  @IsIn(employeeStatuses) status!: string;
  @JSONSchema({ description: "The employee's manager (an employee id)" })
  @Nullable()
  @IsUUID()
  managerId!: string | null;
  @JSONSchema({ description: "Whether the employee waives fractionnement; null: the organisation's default" })
  @Nullable()
  @IsBoolean()
  fractionnementWaived!: boolean | null;
  @JSONSchema({ description: workTimeModeDocs }) @IsIn(workTimeModes) workTimeMode!: WorkTimeMode;
  @JSONSchema({ description: "The employee's yearly forfait in days; null: the organisation's" })
  @Nullable()
  @IsInt()
  forfaitDays!: number | null;
  @JSONSchema({ description: 'Bootstrap fields of a provisioned hire', type: 'object', additionalProperties: true })
  @IsObject()
  bootstrap!: Record<string, unknown>;
  @IsDateString() createdAt!: string;
  @IsDateString() updatedAt!: string;

  static from(e: Lean<HrEmployee>): EmployeeView {
    return {
      id: e.id,
      userId: e.userId ?? null,
      userProvisional: e.userProvisional,
      candidateId: e.candidateId ?? null,
      firstName: e.firstName,
      lastName: e.lastName,
      email: e.email ?? null,
      jobTitle: e.jobTitle ?? null,
      department: e.department ?? null,
      timeZone: e.timeZone,
      weeklyHours: Number(e.weeklyHours),
      hireDate: e.hireDate ?? null,
      endDate: e.endDate ?? null,
      status: e.status,
      managerId: e.managerId ?? null,
      fractionnementWaived: e.fractionnementWaived ?? null,
      workTimeMode: e.workTimeMode,
      forfaitDays: e.forfaitDays ?? null,
      bootstrap: e.bootstrap,
      createdAt: isoTime(e.createdAt),
      updatedAt: isoTime(e.updatedAt),
    };
  }
}

export class EmployeePageView {
  @ValidateNested({ each: true }) @Type(() => EmployeeView) items!: EmployeeView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<HrEmployee>): EmployeePageView {
    return mapPage(page, EmployeeView.from);
  }
}

export class ScheduleSlotView {
  @IsInt() weekday!: number;
  @IsString() start!: string;
  @IsString() end!: string;
}

export class ScheduleView {
  @IsUUID() id!: string;
  @IsUUID() employeeId!: string;
  @JSONSchema({ format: 'date' }) @IsString() effectiveFrom!: string;
  @IsString() timeZone!: string;
  @ValidateNested({ each: true }) @Type(() => ScheduleSlotView) slots!: ScheduleSlotView[];
  @JSONSchema({ description: 'Scheduled hours of a week' })
  @IsNumber()
  weeklyHours!: number;
  @IsDateString() createdAt!: string;

  static from(s: Lean<HrSchedule>): ScheduleView {
    return {
      id: s.id,
      employeeId: s.employeeId,
      effectiveFrom: s.effectiveFrom,
      timeZone: s.timeZone,
      slots: s.slots,
      weeklyHours: Math.round((weeklyMinutes(s.slots) / 60) * 100) / 100,
      createdAt: isoTime(s.createdAt),
    };
  }
}

export class EmployeeScheduleView {
  @IsUUID() employeeId!: string;
  @JSONSchema({ description: "The version in force today (employee's zone); null before the first one starts" })
  @Nullable()
  @ValidateNested()
  @Type(() => ScheduleView)
  current!: ScheduleView | null;
  @JSONSchema({ description: 'Every version, oldest first' })
  @ValidateNested({ each: true })
  @Type(() => ScheduleView)
  versions!: ScheduleView[];

  static from(s: EmployeeSchedules): EmployeeScheduleView {
    return {
      employeeId: s.employeeId,
      current: s.current ? ScheduleView.from(s.current) : null,
      versions: s.versions.map(ScheduleView.from),
    };
  }
}

export class IntervalView {
  @IsDateString() start!: string;
  @IsDateString() end!: string;
}

export class AvailabilityView {
  @IsUUID() employeeId!: string;
  @IsDateString() from!: string;
  @IsDateString() to!: string;
  @IsString() timeZone!: string;
  @JSONSchema({ description: 'Working intervals in UTC, sorted and non-overlapping' })
  @ValidateNested({ each: true })
  @Type(() => IntervalView)
  intervals!: IntervalView[];

  static from(employeeId: string, range: { from: Date; to: Date }, a: Availability): AvailabilityView {
    return {
      employeeId,
      from: isoTime(range.from),
      to: isoTime(range.to),
      timeZone: a.timeZone,
      intervals: a.intervals.map((i) => ({ start: isoTime(i.start), end: isoTime(i.end) })),
    };
  }
}

export class LeaveTypeView {
  @IsUUID() id!: string;
  @IsString() code!: string;
  @IsString() name!: string;
  @IsBoolean() paid!: boolean;
  @IsBoolean() tracksBalance!: boolean;
  @JSONSchema({ description: "Days credited each month, in the type's counting" })
  @IsNumber()
  accrualDaysPerMonth!: number;
  @IsBoolean() rtt!: boolean;
  @JSONSchema({ description: leaveTypeCounting })
  @IsIn(leaveCountings)
  counting!: string;
  @JSONSchema({ description: 'When it was archived (no new request nor accrual since); null while in use' })
  @Nullable()
  @IsDateString()
  archivedAt!: string | null;

  static from(t: Lean<HrLeaveType>): LeaveTypeView {
    return {
      id: t.id,
      code: t.code,
      name: t.name,
      paid: t.paid,
      tracksBalance: t.tracksBalance,
      accrualDaysPerMonth: Number(t.accrualDaysPerMonth),
      rtt: t.rtt,
      counting: t.counting,
      archivedAt: iso(t.archivedAt),
    };
  }
}

export class LeaveTypesView {
  @ValidateNested({ each: true }) @Type(() => LeaveTypeView) items!: LeaveTypeView[];
}

export class LeaveRequestView {
  @IsUUID() id!: string;
  @IsUUID() employeeId!: string;
  @IsUUID() leaveTypeId!: string;
  @JSONSchema({ format: 'date' }) @IsString() startDate!: string;
  @IsIn(halves) startHalf!: string;
  @JSONSchema({ format: 'date' }) @IsString() endDate!: string;
  @IsIn(halves) endHalf!: string;
  @JSONSchema({ description: "Days taken in the type's counting when filed (halves count 0.5)" })
  @IsNumber()
  days!: number;
  @Nullable() @IsString() comment!: string | null;
  @JSONSchema({
    description: 'pending -> granted | refused | cancelled; granted -> cancelled. refused and cancelled are final',
  })
  @IsIn(leaveStatuses)
  status!: string;
  @Nullable() @IsUUID() requestedBy!: string | null;
  @Nullable() @IsUUID() decidedBy!: string | null;
  @Nullable() @IsDateString() decidedAt!: string | null;
  @Nullable() @IsString() decisionReason!: string | null;
  @JSONSchema({ description: 'Who cancelled it: the employee withdrawing it or a manager recalling it' })
  @Nullable()
  @IsUUID()
  cancelledBy!: string | null;
  @Nullable() @IsDateString() cancelledAt!: string | null;
  @Nullable() @IsString() cancellationReason!: string | null;
  @JSONSchema({
    description:
      'The approval chain the request follows, snapshotted when filed (empty: one decision by a holder of hr.leave.decide)',
  })
  @ValidateNested({ each: true })
  @Type(() => ApprovalStepView)
  approvalChain!: ApprovalStepView[];
  @JSONSchema({
    description: 'How many steps approved it so far: a pending request waits for step approvedSteps + 1',
  })
  @IsInt()
  approvedSteps!: number;
  @IsDateString() createdAt!: string;

  static from(r: Lean<HrLeaveRequest>): LeaveRequestView {
    return {
      id: r.id,
      employeeId: r.employeeId,
      leaveTypeId: r.leaveTypeId,
      startDate: r.startDate,
      startHalf: r.startHalf,
      endDate: r.endDate,
      endHalf: r.endHalf,
      days: Number(r.days),
      comment: r.comment ?? null,
      status: r.status,
      requestedBy: r.requestedBy ?? null,
      decidedBy: r.decidedBy ?? null,
      decidedAt: iso(r.decidedAt),
      decisionReason: r.decisionReason ?? null,
      cancelledBy: r.cancelledBy ?? null,
      cancelledAt: iso(r.cancelledAt),
      cancellationReason: r.cancellationReason ?? null,
      approvalChain: (r.approvalChain ?? []).map(ApprovalStepView.from),
      approvedSteps: r.approvedSteps ?? 0,
      createdAt: isoTime(r.createdAt),
    };
  }
}

export class LeaveRequestPageView {
  @ValidateNested({ each: true }) @Type(() => LeaveRequestView) items!: LeaveRequestView[];
  @Nullable() @IsString() nextCursor!: string | null;

  static from(page: Page<Lean<HrLeaveRequest>>): LeaveRequestPageView {
    return mapPage(page, LeaveRequestView.from);
  }
}

export class LedgerEntryView {
  @IsUUID() id!: string;
  @IsUUID() leaveTypeId!: string;
  @IsIn(ledgerKinds) kind!: string;
  @JSONSchema({ description: 'Signed days: credits positive, debits negative' })
  @IsNumber()
  days!: number;
  @JSONSchema({ description: 'Month of a generated movement (accrual, RTT)' })
  @Nullable()
  @IsString()
  period!: string | null;
  @Nullable() @IsUUID() leaveRequestId!: string | null;
  @Nullable() @IsString() reason!: string | null;
  @JSONSchema({
    description: `The rule the movement applies: ${paidLeaveRules.join(', ')}; null for a movement of no rule (requests, adjustments) or one made before rules were named`,
  })
  @Nullable()
  @IsString()
  rule!: string | null;
  @Nullable() @IsUUID() createdBy!: string | null;
  @IsDateString() createdAt!: string;

  static from(m: Lean<HrLeaveLedgerEntry>): LedgerEntryView {
    return {
      id: m.id,
      leaveTypeId: m.leaveTypeId,
      kind: m.kind,
      days: Number(m.days),
      period: m.period ?? null,
      leaveRequestId: m.leaveRequestId ?? null,
      reason: m.reason ?? null,
      rule: m.rule ?? null,
      createdBy: m.createdBy ?? null,
      createdAt: isoTime(m.createdAt),
    };
  }
}

export class TypeBalanceView {
  @IsUUID() leaveTypeId!: string;
  @IsString() code!: string;
  @IsString() name!: string;
  @JSONSchema({ description: 'Sum of the ledger movements of the type (pending requests already held)' })
  @IsNumber()
  balance!: number;
  @JSONSchema({ description: 'Days held by pending requests' })
  @IsNumber()
  pending!: number;
  @JSONSchema({
    description:
      'N-1: of the balance, the days earned in earlier reference periods, to be taken now; leave taken spends them first',
  })
  @IsNumber()
  previous!: number;
  @JSONSchema({
    description:
      'N: of the balance, the days being earned in the current reference period (less what leave taken beyond N-1 used)',
  })
  @IsNumber()
  current!: number;
}

export class LeaveBalanceView {
  @IsUUID() employeeId!: string;
  @ValidateNested({ each: true }) @Type(() => TypeBalanceView) balances!: TypeBalanceView[];
  @JSONSchema({ description: 'The latest 100 movements, newest first' })
  @ValidateNested({ each: true })
  @Type(() => LedgerEntryView)
  movements!: LedgerEntryView[];

  static from(b: LeaveBalance): LeaveBalanceView {
    return {
      employeeId: b.employeeId,
      balances: b.balances.map((x) => ({
        leaveTypeId: x.type.id,
        code: x.type.code,
        name: x.type.name,
        balance: x.balance,
        pending: x.pending,
        previous: x.previous,
        current: x.current,
      })),
      movements: b.movements.map(LedgerEntryView.from),
    };
  }
}

export class PublicHolidayView {
  @JSONSchema({ format: 'date' }) @IsString() date!: string;
  @IsString() name!: string;
}

export class PublicHolidaysView {
  @IsInt() year!: number;
  @IsString() country!: string;
  @ValidateNested({ each: true }) @Type(() => PublicHolidayView) items!: PublicHolidayView[];

  static from(year: number, items: PublicHoliday[]): PublicHolidaysView {
    return { year, country: 'FR', items };
  }
}

export class RttJobView {
  @JSONSchema({ description: 'Month generated, YYYY-MM' })
  @IsString()
  period!: string;
  @IsString() jobId!: string;
}
