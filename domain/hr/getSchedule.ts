import { HrEmployee } from '../../entities/hr/employee';
import type { HrSchedule } from '../../entities/hr/schedule';
import { notFound } from '../../lib/errors';
import { lean, type Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';
import { scheduleVersionRows, todayIn, versionOn } from './schedules';

export interface EmployeeSchedules {
  employeeId: string;
  /** The version in force today (employee's zone), null when none has started. */
  current: Lean<HrSchedule> | null;
  /** Every version, oldest first. */
  versions: Lean<HrSchedule>[];
}

// A lean statement (docs/database-path.md): what a manager's read needs of the employee (findEmployee's 404 kept).
const employeeZone = lean(HrEmployee, { columns: ['id', 'timeZone'], where: 'id = $1' });

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
