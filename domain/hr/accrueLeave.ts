import type { TenantContext } from '../context';
import { monthBounds } from '../../lib/calendar';
import { HrLeaveType } from '../../entities/hr/leave';
import { creditFractionnement } from './creditFractionnement';
import { takingPeriodEndingIn } from './fractionnement';
import { ensureDefaultLeaveTypes } from './leaveTypes';
import { accrualMovements, type Earned } from './monthlyLeave';
import { expiringDays, referencePeriodOf, splitSums } from './paidLeave';
import { employeesWorkingBetween } from './store/employees';
import {
  accruedBetween,
  accruingLeaveTypes,
  grantedLeaveOfTypeBetween,
  insertGeneratedMovements,
  splitSumsOf,
  type GeneratedMovement,
} from './store/leave';

/** The leave type whose granted requests are non-professional sick leave (its days earn 2 a month, not 2.5). */
export const SICK_LEAVE_CODE = 'sick';

/**
 * Credits every live accruing leave type (accrualDaysPerMonth > 0, not archived; paid leave 2.5 ouvrables) to
 * each employee of the month (accrualMovements): one `accrual` movement per employee, type and month for the
 * days worked (pro rata of a month of arrival or departure, the last month of the reference period rounding it
 * up to a whole day), and for paid leave one `sick_accrual` movement for granted sick leave of the month. The
 * last month of a reference period also closes it: N-1 days not taken beyond HR_LEAVE_CARRY_OVER_DAYS expire
 * (one `expiry` movement, of the next period's first month). April, the last month of the taking period
 * (1 May - 30 April), also credits its fractionnement (creditFractionnement). Each names its rule. Run twice, it credits once.
 * Returns the movements made. With `employeeIds` (a departure's settlement), only those employees' accrual of the
 * month is credited, not the period's expiry nor fractionnement.
 */
export async function accrueLeave(ctx: TenantContext, period: string, employeeIds?: string[]): Promise<number> {
  const { first, last } = monthBounds(period);
  const startMonth = ctx.services.config.HR_LEAVE_REFERENCE_START_MONTH;
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  const types = await accruingLeaveTypes(ctx.em);
  if (!types.length) return 0;
  const typeIds = types.map((t) => t.id);
  const refPeriod = referencePeriodOf(period, startMonth);
  const employees = (await employeesWorkingBetween(ctx.em, first, last)).filter(
    (e) => !employeeIds || employeeIds.includes(e.id),
  );
  const sickType = await ctx.em.findOne(HrLeaveType, { code: SICK_LEAVE_CODE }, { fields: ['id'] });
  const sickLeave = sickType ? await grantedLeaveOfTypeBetween(ctx.em, sickType.id, first, last) : [];
  const earned = new Map<string, Earned>(
    (await accruedBetween(ctx.em, ctx.tenantId, refPeriod.firstMonth, period, typeIds)).map((r) => [
      `${r.employeeId}:${r.leaveTypeId}`,
      { total: r.days, sick: r.sick },
    ]),
  );
  const { accrual, sick } = accrualMovements({ period, employees, types, sickLeave, earned, startMonth });
  let made = await insertGeneratedMovements(ctx.em, ctx.tenantId, 'accrual', period, accrual);
  made += await insertGeneratedMovements(ctx.em, ctx.tenantId, 'sick_accrual', period, sick);
  if (employeeIds) return made;
  if (period === refPeriod.lastMonth) made += await expire(ctx, refPeriod.firstMonth, typeIds);
  const taking = takingPeriodEndingIn(period);
  if (taking) made += await creditFractionnement(ctx, taking);
  return made;
}

/**
 * Closes a reference period (its first month given): what is left of each employee's N-1 (splitSums) beyond the
 * carry-over expires, one `expiry` movement of the next period's first month. Nothing with a negative carry-over.
 */
async function expire(ctx: TenantContext, firstMonth: string, typeIds: string[]): Promise<number> {
  const carry = ctx.services.config.HR_LEAVE_CARRY_OVER_DAYS;
  if (carry < 0) return 0;
  const next = `${Number(firstMonth.slice(0, 4)) + 1}${firstMonth.slice(4)}`;
  const rows: GeneratedMovement[] = [];
  for (const s of await splitSumsOf(ctx.em, ctx.tenantId, firstMonth, typeIds)) {
    const days = expiringDays(splitSums(s.current, s.rest).previous, carry);
    if (days > 0)
      rows.push({
        employeeId: s.employeeId,
        leaveTypeId: s.leaveTypeId,
        days: -days,
        rule: 'carry_over_expiry',
        reason: `Expiry: N-1 days not taken by the end of the reference period before ${next}, beyond the ${carry} carried over`,
      });
  }
  return insertGeneratedMovements(ctx.em, ctx.tenantId, 'expiry', next, rows);
}
