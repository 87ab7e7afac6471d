import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter, updatedAt } from '../base';

export const employeeStatuses = ['active', 'left'] as const;
/** How working time is counted: hours (overtime beyond 35 h) or days against a yearly forfait (L3121-58). */
export const workTimeModes = ['hours', 'forfait_days'] as const;
export type WorkTimeMode = (typeof workTimeModes)[number];
export type EmployeeStatus = (typeof employeeStatuses)[number];

/**
 * A person employed by the organisation. `userId` links the identity account they sign in with (one employee
 * per account and organisation). An employee provisioned from a hired candidate before they have an account
 * gets a provisional `userId` (`userProvisional`): the identity profile is created by identity when they sign
 * up, never duplicated here; the candidate id makes the provisioning idempotent.
 */
/** Column sizes of an employee's texts, which the request bodies take too. */
export const EMPLOYEE_TEXT_LENGTHS = {
  candidateId: 100,
  name: 100,
  email: 254,
  jobTitle: 120,
  department: 120,
} as const;

export const HrEmployee = defineEntity({
  name: 'HrEmployee',
  tableName: 'hr_employees',
  filters: tenantFilter,
  // Partial: the hourly departures job reads the active employees with a last day only.
  indexes: [
    { properties: ['tenantId', 'lastName', 'firstName'] },
    {
      name: 'hr_employees_departures_idx',
      expression: `create index "hr_employees_departures_idx" on "hr_employees" ("end_date") where "status" = 'active' and "end_date" is not null`,
    },
  ],
  uniques: [{ properties: ['tenantId', 'userId'] }, { properties: ['tenantId', 'candidateId'] }],
  checks: [{ name: 'hr_employees_forfait_days_check', expression: '((forfait_days >= 1) AND (forfait_days <= 235))' }],
  properties: {
    ...tenantColumns(),
    userId: p.uuid().nullable(),
    /** True while userId is a provisional id reserved for an account not created yet. */
    userProvisional: p.boolean().default(false),
    /** The recruitment module's candidate this employee was provisioned from. */
    candidateId: p.string().length(EMPLOYEE_TEXT_LENGTHS.candidateId).nullable(),
    firstName: p.string().length(EMPLOYEE_TEXT_LENGTHS.name),
    lastName: p.string().length(EMPLOYEE_TEXT_LENGTHS.name),
    email: p.string().length(EMPLOYEE_TEXT_LENGTHS.email).nullable(),
    jobTitle: p.string().length(EMPLOYEE_TEXT_LENGTHS.jobTitle).nullable(),
    department: p.string().length(EMPLOYEE_TEXT_LENGTHS.department).nullable(),
    /** IANA zone of the employee's days (schedules, compliance, timesheets). */
    timeZone: p.string().length(64),
    /** Contractual weekly hours (35 by default, the French legal week). */
    weeklyHours: p.decimal('number').precision(5).scale(2).default(35),
    hireDate: p.date().nullable(),
    endDate: p.date().nullable(),
    status: p.enum([...employeeStatuses]).default('active'),
    /** What the provisioning service sent beyond the named fields (kept as given). */
    /** The employee's manager (another employee), the `manager` step of an approval chain. */
    managerId: p.uuid().nullable(),
    /** Whether the employee waives the days of fractionnement; null follows the organisation's default. */
    fractionnementWaived: p.boolean().nullable(),
    workTimeMode: p.enum([...workTimeModes]).default('hours'),
    /** The employee's yearly forfait in days (forfait_days mode); null: the organisation's. */
    forfaitDays: p.integer().nullable(),
    bootstrap: p.json<Record<string, unknown>>().default('{}'),
    updatedAt: updatedAt(),
  },
});
export type HrEmployee = InferEntity<typeof HrEmployee>;
