import type { TenantContext } from '../context';
import { HrEmployee } from '../../entities/hr/employee';
import type { LeaveCounting } from '../../entities/hr/leave';
import { MONTHLY_PAID_LEAVE } from './accrual';
import { fractionnementOf, fractionnementReason, type TakingPeriod } from './fractionnement';
import { hrSettingsOf } from './settings';
import { employeesWorkingBetween } from './store/employees';
import {
  accruingLeaveTypes,
  grantedLeaveOfTypeBetween,
  insertGeneratedMovements,
  type GeneratedMovement,
} from './store/leave';
import { scheduleVersionsOfEmployees } from './store/schedules';

/**
 * Credits the days of fractionnement of a taking period that has ended (fractionnementOf), for each paid-leave
 * type (accruing at least the law's rate of its counting) and each employee employed during it: one
 * `fractionnement` movement of 1 or 2 days, rule `fractionnement`, its period the taking period's first month
 * (YYYY-05). The ledger's unique index on employee, type, kind and period credits a period once, however often
 * it runs. Employees who waive them (their own choice, else the organisation's default) get nothing. Returns the
 * movements made.
 */
export async function creditFractionnement(ctx: TenantContext, period: TakingPeriod): Promise<number> {
  const types = (await accruingLeaveTypes(ctx.em)).filter(
    (t) => Number(t.accrualDaysPerMonth) >= MONTHLY_PAID_LEAVE[t.counting as LeaveCounting],
  );
  if (!types.length) return 0;
  const employees = await employeesWorkingBetween(ctx.em, period.from, period.to);
  if (!employees.length) return 0;
  const settings = await hrSettingsOf(ctx);
  const waivers = new Map(
    (
      await ctx.em.find(
        HrEmployee,
        { id: { $in: employees.map((e) => e.id) } },
        { fields: ['id', 'fractionnementWaived'] },
      )
    ).map((e) => [e.id, e.fractionnementWaived ?? null]),
  );
  const versions = await scheduleVersionsOfEmployees(
    ctx.em,
    employees.map((e) => e.id),
  );
  let made = 0;
  for (const type of types) {
    const leave = await grantedLeaveOfTypeBetween(ctx.em, type.id, period.from, period.to);
    const rows: GeneratedMovement[] = [];
    for (const employee of employees) {
      const requests = leave.filter((l) => l.employeeId === employee.id);
      if (!requests.length) continue;
      const f = fractionnementOf({
        period,
        counting: type.counting as LeaveCounting,
        requests,
        versions: versions.filter((v) => v.employeeId === employee.id),
        employment: employee,
        waived: waivers.get(employee.id) ?? null,
        waivedByDefault: settings.fractionnementWaivedByDefault,
      });
      if (f.days > 0)
        rows.push({
          employeeId: employee.id,
          leaveTypeId: type.id,
          days: f.days,
          rule: 'fractionnement',
          reason: fractionnementReason(period, f),
        });
    }
    made += await insertGeneratedMovements(ctx.em, ctx.tenantId, 'fractionnement', period.label, rows);
  }
  return made;
}
