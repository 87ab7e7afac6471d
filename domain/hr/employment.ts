import { DateTime } from 'luxon';
import type { EmployeeStatus, HrEmployee } from '../../entities/hr/employee';

/** Whether an employee has left at `at`: from the day after their last day (`endDate`), in their own time zone. */
export function statusOn(employee: Pick<HrEmployee, 'endDate' | 'timeZone'>, at = new Date()): EmployeeStatus {
  return employee.endDate && employee.endDate < DateTime.fromJSDate(at, { zone: employee.timeZone }).toISODate()! ? 'left' : 'active';
}
