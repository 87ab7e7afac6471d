import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { LeaveCounting } from '../../entities/hr/leave';
import type { SettlementLine } from '../../entities/hr/settlement';
import { todayIn } from '../../lib/calendar';
import { conflict } from '../../lib/errors';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { accrueLeave } from './accrueLeave';
import { MONTHLY_PAID_LEAVE } from './accrual';
import { listLeaveTypes } from './listLeaveTypes';
import { findEmployee } from './lookup';
import { referencePeriodOf, splitSums } from './paidLeave';
import { insertGeneratedMovements, pendingDaysOf, splitSumsOfEmployee } from './store/leave';
import { insertSettlement, settlementOf } from './store/settlements';

export interface SettlementValues {
  employeeId: string;
  endDate: string;
  lines: SettlementLine[];
  settledAt: Date;
  settledBy: string | null;
}

const monthsFrom = (first: string, last: string): string[] => {
  const months: string[] = [];
  for (
    let y = Number(first.slice(0, 4)), m = Number(first.slice(5, 7));
    `${y}-${String(m).padStart(2, '0')}` <= last;
  ) {
    months.push(`${y}-${String(m).padStart(2, '0')}`);
    if (++m > 12) [y, m] = [y + 1, 1];
  }
  return months;
};

/**
 * The final leave settlement of an employee who has left (their last day passed in their zone; else 409
 * `employee_not_left`), made once (409 `settlement_exists`) with no request pending (409
 * `leave_requests_pending`: decide them first). It first credits what the monthly accrual has not yet (the months
 * of the reference period to the last day, the last one pro rata; idempotent by the ledger's unique index, so the
 * job's later run credits nothing twice), then freezes the balance of each type keeping one: N-1, N, total. The
 * paid-leave days (types accruing at least the law's rate) are paid out as indemnite compensatrice (L3141-28):
 * one `settlement` movement each bringing the balance to 0. One transaction; audited `hr.employee.settled`.
 */
export async function settleDeparture(ctx: TenantContext, employeeId: string): Promise<SettlementValues> {
  const employee = await findEmployee(ctx.em, employeeId);
  const endDate = employee.endDate;
  if (!endDate || endDate >= todayIn(employee.timeZone))
    throw conflict('employee_not_left', 'The settlement is made once the last day of work (endDate) has passed');
  if (await settlementOf(ctx.em, employee.id)) throw settled();
  if ((await pendingDaysOf.all(ctx, employee.id)).length)
    throw conflict('leave_requests_pending', 'Decide or cancel the pending leave requests first');
  const startMonth = ctx.services.config.HR_LEAVE_REFERENCE_START_MONTH;
  const period = referencePeriodOf(endDate, startMonth);
  const endMonth = endDate.slice(0, 7);
  for (const month of monthsFrom(period.firstMonth, endMonth)) await accrueLeave(ctx, month, [employee.id]);

  const [types, sums] = await Promise.all([
    listLeaveTypes(ctx),
    splitSumsOfEmployee(ctx.services.orm, [ctx.tenantId, employee.id, period.firstMonth]),
  ]);
  const lines: SettlementLine[] = types
    .filter((t) => t.tracksBalance || sums.some((s) => s.leave_type_id === t.id))
    .map((t) => {
      const sum = sums.find((s) => s.leave_type_id === t.id);
      const split = splitSums(Number(sum?.current ?? 0), Number(sum?.rest ?? 0));
      return {
        leaveTypeId: t.id,
        code: t.code,
        name: t.name,
        counting: t.counting,
        previous: split.previous,
        current: split.current,
        days: split.total,
        compensated: Number(t.accrualDaysPerMonth) >= MONTHLY_PAID_LEAVE[t.counting as LeaveCounting],
      };
    });
  try {
    const settledAt = await ctx.em.transactional(async (em) => {
      const at = await insertSettlement(em, {
        tenantId: ctx.tenantId,
        employeeId: employee.id,
        endDate,
        lines,
        settledBy: ctx.userId,
      });
      await insertGeneratedMovements(
        em,
        ctx.tenantId,
        'settlement',
        endMonth,
        lines
          .filter((l) => l.compensated && l.days > 0)
          .map((l) => ({
            employeeId: employee.id,
            leaveTypeId: l.leaveTypeId,
            days: -l.days,
            rule: 'departure_settlement',
            reason: `Indemnite compensatrice: ${l.days} days paid out on departure (last day ${endDate})`,
          })),
      );
      audit(em, {
        action: 'hr.employee.settled',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_employee',
        targetId: employee.id,
        data: { endDate, lines: lines.map((l) => ({ code: l.code, days: l.days, compensated: l.compensated })) },
      });
      return at;
    });
    return { employeeId: employee.id, endDate, lines, settledAt, settledBy: ctx.userId };
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw settled();
    throw err;
  }
}

const settled = () => conflict('settlement_exists', 'This departure is already settled');
