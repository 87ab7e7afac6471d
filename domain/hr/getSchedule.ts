import type { HrSchedule } from '../../entities/hr/schedule';
import type { TenantContext } from '../context';
import { employeeInScope, hrScope } from './lookup';
import { scheduleVersions, todayIn, versionOn } from './schedules';

export interface EmployeeSchedules {
  employeeId: string;
  /** The version in force today (employee's zone), null when none has started. */
  current: HrSchedule | null;
  /** Every version, oldest first. */
  versions: HrSchedule[];
}

/** The schedule versions of an employee (managers: any employee; others: their own). */
export async function getSchedule(ctx: TenantContext, employeeId: string): Promise<EmployeeSchedules> {
  const employee = await employeeInScope(ctx, await hrScope(ctx), employeeId);
  const versions = await scheduleVersions(ctx.em, employee.id);
  return { employeeId: employee.id, current: versionOn(versions, todayIn(employee.timeZone)), versions };
}
