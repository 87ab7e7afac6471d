import type { TenantContext } from '../context';
import { monthBounds } from '../../lib/calendar';
import { ensureDefaultLeaveTypes } from './leaveTypes';
import { excessMinutes, rttDaysOf, rttReason, rttWeeksOf } from './monthlyLeave';
import { employeesWorkingBetween } from './store/employees';
import { grantedLeaveBetween, insertGeneratedMovements, rttLeaveType, type GeneratedMovement } from './store/leave';
import { scheduleVersionsOfEmployees } from './store/schedules';

/**
 * Generates the RTT of a month: each ISO week starting in the month whose worked minutes pass the legal 35 h
 * earns (minutes - 35 h) / 7 h days (excessMinutes: scheduled minutes within the employment, not on public
 * holidays nor in the halves of days taken by leave granted when the generation runs; absences earn no RTT).
 * The month's total is one `rtt_generation` movement per employee, credited to the organisation's RTT type (the
 * first by code with rtt set, not archived). Nothing for a month without excess. Run twice, it credits once.
 */
export async function generateRtt(ctx: TenantContext, period: string): Promise<number> {
  const { first, last } = monthBounds(period);
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  const type = await rttLeaveType(ctx.em);
  if (!type) return 0;
  const employees = await employeesWorkingBetween(ctx.em, first, last);
  const ids = employees.map((e) => e.id);
  const weeks = rttWeeksOf(period);
  const schedules = await scheduleVersionsOfEmployees(ctx.em, ids);
  const leave = await grantedLeaveBetween(ctx.em, ids, weeks.first, weeks.last);
  const rows: GeneratedMovement[] = [];
  // Employees au forfait jours earn rest days by their forfait, not by hours (forfaitDays.ts).
  for (const employee of employees.filter((e) => e.workTimeMode !== 'forfait_days')) {
    const versions = schedules.filter((s) => s.employeeId === employee.id);
    if (!versions.length) continue;
    const excess = excessMinutes(
      weeks,
      employee,
      versions,
      leave.filter((l) => l.employeeId === employee.id),
    );
    const days = rttDaysOf(excess);
    if (days > 0) rows.push({ employeeId: employee.id, leaveTypeId: type.id, days, reason: rttReason(period, excess) });
  }
  return insertGeneratedMovements(ctx.em, ctx.tenantId, 'rtt_generation', period, rows);
}
