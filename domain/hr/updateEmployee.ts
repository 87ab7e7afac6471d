import type { HrEmployee, WorkTimeMode } from '../../entities/hr/employee';
import { invalidField } from '../../lib/errors';
import { checkZone } from '../../lib/timeZones';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { statusOn } from './employment';
import { findEmployee } from './lookup';

/** What a manager may change of an employee; null clears an optional field. The linked account is not edited here. */
export interface UpdateEmployeeProps {
  firstName?: string;
  lastName?: string;
  email?: string | null;
  jobTitle?: string | null;
  department?: string | null;
  timeZone?: string;
  weeklyHours?: number;
  hireDate?: string | null;
  /** Last day of work (local date); null cancels a departure. */
  endDate?: string | null;
  /** Another employee of the organisation (the `manager` step of approval chains); null clears it. */
  managerId?: string | null;
  /** Whether the employee waives the days of fractionnement; null follows the organisation's default. */
  fractionnementWaived?: boolean | null;
  /** Hours (overtime beyond 35 h) or days against a yearly forfait. */
  workTimeMode?: WorkTimeMode;
  /** The employee's own forfait in days; null follows the organisation's. */
  forfaitDays?: number | null;
}

/**
 * Edits an employee in one transaction. Setting the last day (`endDate`) ends the employment: the employee is
 * `left` from the next local day (at once for a past date; the clock's `hr-departures` job flips a future one
 * when it passes), punches after it are refused, monthly accrual stops with it and availability ends there.
 * Clearing it, or moving it into the future, makes the employee active again.
 */
export async function updateEmployee(ctx: TenantContext, id: string, props: UpdateEmployeeProps): Promise<HrEmployee> {
  return ctx.em.transactional(async (em) => {
    const employee = await findEmployee(em, id);
    const changed = Object.keys(props).filter((k) => props[k as keyof UpdateEmployeeProps] !== undefined);
    if (props.firstName !== undefined) employee.firstName = props.firstName.trim();
    if (props.lastName !== undefined) employee.lastName = props.lastName.trim();
    if (props.email !== undefined) employee.email = props.email?.toLowerCase() ?? null;
    if (props.jobTitle !== undefined) employee.jobTitle = props.jobTitle;
    if (props.department !== undefined) employee.department = props.department;
    if (props.timeZone !== undefined) employee.timeZone = await checkZone(em, 'timeZone', props.timeZone);
    if (props.weeklyHours !== undefined) employee.weeklyHours = props.weeklyHours;
    if (props.hireDate !== undefined) employee.hireDate = props.hireDate;
    if (props.endDate !== undefined) employee.endDate = props.endDate;
    if (props.managerId !== undefined) {
      if (props.managerId === employee.id) throw invalidField('managerId', 'an employee is not their own manager');
      if (props.managerId !== null) await findEmployee(em, props.managerId);
      employee.managerId = props.managerId;
    }
    if (props.fractionnementWaived !== undefined) employee.fractionnementWaived = props.fractionnementWaived;
    if (props.workTimeMode !== undefined) employee.workTimeMode = props.workTimeMode;
    if (props.forfaitDays !== undefined) employee.forfaitDays = props.forfaitDays;
    if (employee.hireDate && employee.endDate && employee.endDate < employee.hireDate)
      throw invalidField(
        props.endDate !== undefined ? 'endDate' : 'hireDate',
        'the last day must not be before the first day of work',
      );
    const status = statusOn(employee);
    if (status !== employee.status) changed.push('status');
    employee.status = status;
    audit(em, {
      action: 'hr.employee.updated',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'hr_employee',
      targetId: employee.id,
      data: { fields: changed, status },
    });
    return employee;
  });
}
