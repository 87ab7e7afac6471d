import type { EmployeeStatus, HrEmployee } from '../../entities/hr/employee';
import { todayIn } from '../../lib/calendar';

/** The dates bounding an employment: the first day of work (when known) and the last one (when set). */
export type Employment = Partial<Pick<HrEmployee, 'hireDate' | 'endDate'>>;

/** Whether a local date is within the employment. */
export const employedOn = (employee: Employment, date: string): boolean =>
  !(employee.hireDate && date < employee.hireDate) && !(employee.endDate && date > employee.endDate);

/** Whether an employee has left at `at`: from the day after their last day (`endDate`), in their own time zone. */
export function statusOn(employee: Pick<HrEmployee, 'endDate' | 'timeZone'>, at = new Date()): EmployeeStatus {
  return employee.endDate && employee.endDate < todayIn(employee.timeZone, at) ? 'left' : 'active';
}
