import type { TenantContext } from '../context';
import { monthBounds } from '../../lib/calendar';
import { referenceYearOf } from './accrual';
import { ensureDefaultLeaveTypes } from './leaveTypes';
import { accrualMovements } from './monthlyLeave';
import { employeesWorkingBetween } from './store/employees';
import { accruedBetween, accruingLeaveTypes, insertGeneratedMovements } from './store/leave';

/**
 * Credits every live accruing leave type (accrualDaysPerMonth > 0, not archived; paid leave 2.5 ouvrables) to
 * each employee of the month: one `accrual` movement per employee, type and month, at the type's rate when the
 * job runs (earlier movements keep theirs). The last month of a reference year (May) also rounds what the
 * employee earned of the type in that year up to a whole day (monthlyAccrual). Run twice, it credits once.
 * Returns the movements made.
 */
export async function accrueLeave(ctx: TenantContext, period: string): Promise<number> {
  const { first, last } = monthBounds(period);
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  const types = await accruingLeaveTypes(ctx.em);
  const employees = await employeesWorkingBetween(ctx.em, first, last);
  const earned = await earnedInReferenceYear(
    ctx,
    period,
    types.map((t) => t.id),
  );
  return insertGeneratedMovements(
    ctx.em,
    ctx.tenantId,
    'accrual',
    period,
    accrualMovements(
      period,
      employees.map((e) => e.id),
      types,
      earned,
    ),
  );
}

/** What the earlier months of the reference year credited, by `employee:type`; only read for its last month (where it counts). */
async function earnedInReferenceYear(
  ctx: TenantContext,
  period: string,
  typeIds: string[],
): Promise<Map<string, number>> {
  const year = referenceYearOf(period);
  if (period !== year.last || !typeIds.length) return new Map();
  const rows = await accruedBetween(ctx.em, ctx.tenantId, year.first, period, typeIds);
  return new Map(rows.map((r) => [`${r.employeeId}:${r.leaveTypeId}`, r.days]));
}
