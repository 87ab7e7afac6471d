import type { HrLeaveLedgerEntry, HrLeaveType } from '../../entities/hr/leave';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { listLeaveTypes } from './listLeaveTypes';
import { employeeInReadScope, readScope } from './lookup';
import { referencePeriodOf, splitSums } from './paidLeave';
import { latestMovements, pendingDaysOf, splitSumsOfEmployee } from './store/leave';
import { todayIn } from '../../lib/calendar';

export interface TypeBalance {
  type: Lean<HrLeaveType>;
  /** Sum of the ledger (pending requests' days already held). */
  balance: number;
  /** Days of pending requests (held in the balance until decided). */
  pending: number;
  /** N-1 and N (splitBalance: earlier periods' days, spent first; the current period's). */
  previous: number;
  current: number;
}

export interface LeaveBalance {
  employeeId: string;
  balances: TypeBalance[];
  /** The latest movements, newest first. */
  movements: Lean<HrLeaveLedgerEntry>[];
}

/** An employee's balance per leave type that tracks one (archived ones included) or has movements, computed from the ledger (never a stored counter). */
export async function getLeaveBalance(ctx: TenantContext, employeeId: string): Promise<LeaveBalance> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  const [allTypes, sums, pending, movements] = await Promise.all([
    listLeaveTypes(ctx),
    splitSumsOfEmployee(ctx.services.orm, [
      ctx.tenantId,
      employee.id,
      referencePeriodOf(todayIn(employee.timeZone), ctx.services.config.HR_LEAVE_REFERENCE_START_MONTH).firstMonth,
    ]),
    pendingDaysOf.all(ctx, employee.id),
    latestMovements.all(ctx, employee.id),
  ]);
  // A type that stopped keeping a balance still shows what its ledger holds.
  const types = allTypes.filter((t) => t.tracksBalance || sums.some((s) => s.leave_type_id === t.id));
  return {
    employeeId: employee.id,
    balances: types.map((type) => {
      const sum = sums.find((s) => s.leave_type_id === type.id);
      const split = splitSums(Number(sum?.current ?? 0), Number(sum?.rest ?? 0));
      return {
        type,
        balance: split.total,
        pending: pending.filter((p) => p.leaveTypeId === type.id).reduce((total, p) => total + Number(p.days), 0),
        previous: split.previous,
        current: split.current,
      };
    }),
    movements,
  };
}
