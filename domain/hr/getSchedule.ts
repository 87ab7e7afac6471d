import type { HrSchedule } from '../../entities/hr/schedule';
import { todayIn } from '../../lib/calendar';
import { notFound } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';
import { versionOn } from './schedules';
import { employeeZone } from './store/employees';
import { scheduleVersionRows } from './store/schedules';

export interface EmployeeSchedules {
  employeeId: string;
  /** The version in force today (employee's zone), null when none has started. */
  current: Lean<HrSchedule> | null;
  /** Every version, oldest first. */
  versions: Lean<HrSchedule>[];
}

/** The schedule versions of an employee (managers: any employee; others: their own). */
export async function getSchedule(ctx: TenantContext, employeeId: string): Promise<EmployeeSchedules> {
  const scope = await readScope(ctx);
  // A manager's employee is read with the versions; anyone else may read only their own record, checked first (no query).
  const [employee, versions] = scope.manager
    ? await Promise.all([employeeZone.one(ctx, employeeId), scheduleVersionRows(ctx, employeeId)])
    : [await employeeInReadScope(ctx, scope, employeeId), await scheduleVersionRows(ctx, employeeId)];
  if (!employee) throw notFound('Employee');
  return { employeeId: employee.id, current: versionOn(versions, todayIn(employee.timeZone)), versions };
}
