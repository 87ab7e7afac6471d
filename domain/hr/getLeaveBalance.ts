import { HrLeaveLedgerEntry, HrLeaveRequest, type HrLeaveType } from '../../entities/hr/leave';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { listLeaveTypes } from './leaveTypes';
import { employeeInReadScope, readScope } from './lookup';

export interface TypeBalance {
  type: Lean<HrLeaveType>;
  /** Sum of the ledger (pending requests' days already held). */
  balance: number;
  /** Days of pending requests (held in the balance until decided). */
  pending: number;
}

export interface LeaveBalance {
  employeeId: string;
  balances: TypeBalance[];
  /** The latest movements, newest first. */
  movements: HrLeaveLedgerEntry[];
}

/** Movements shown with a balance. */
export const BALANCE_MOVEMENTS = 100;

/** An employee's balance per leave type that tracks one, computed from the ledger (never a stored counter). */
export async function getLeaveBalance(ctx: TenantContext, employeeId: string): Promise<LeaveBalance> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  const types = (await listLeaveTypes(ctx)).filter((t) => t.tracksBalance);
  const sums = await ctx.em.execute<{ leave_type_id: string; total: string }[]>('select leave_type_id, sum(days) as total from hr_leave_ledger where employee_id = ? group by leave_type_id', [employee.id]);
  const pending = await ctx.em.find(HrLeaveRequest, { employeeId: employee.id, status: 'pending' }, { fields: ['leaveTypeId', 'days'] });
  const movements = await ctx.em.find(HrLeaveLedgerEntry, { employeeId: employee.id }, { orderBy: { id: 'desc' }, limit: BALANCE_MOVEMENTS });
  return {
    employeeId: employee.id,
    balances: types.map((type) => ({
      type,
      balance: Number(sums.find((s) => s.leave_type_id === type.id)?.total ?? 0),
      pending: pending.filter((p) => p.leaveTypeId === type.id).reduce((sum, p) => sum + Number(p.days), 0),
    })),
    movements,
  };
}
