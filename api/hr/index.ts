import type { ModuleMount } from '../http/mount';
import { approvalRoutes } from './approvals';
import { clockRoutes } from './clock';
import { complianceRoutes } from './compliance';
import { employeeRoutes } from './employees';
import { leaveRoutes } from './leave';
import { payrollRoutes } from './payroll';
import { settingsRoutes } from './settings';

/** HR (module `rh`): clock events and corrections, employees, schedules, availability, leave, compliance, timesheets, payroll. */
export function hrApi(mount: ModuleMount): void {
  employeeRoutes(mount);
  clockRoutes(mount);
  leaveRoutes(mount);
  approvalRoutes(mount);
  complianceRoutes(mount);
  settingsRoutes(mount);
  payrollRoutes(mount);
}
