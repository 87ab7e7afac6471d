import { HrLeaveLedgerEntry, HrLeaveRequest, type HrLeaveType } from '../../entities/hr/leave';
import { lean, preparedRead, type Lean } from '../../lib/lean';
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
  movements: Lean<HrLeaveLedgerEntry>[];
}

/** Movements shown with a balance. */
export const BALANCE_MOVEMENTS = 100;

// Lean reads (docs/database-path.md): the ledger's sums per type (an aggregate: preparedRead, the tenant bound
// as $1 in the text), the pending requests' days and the latest movements.
const ledgerSums = preparedRead<{ leave_type_id: string; total: string }>('select leave_type_id, sum(days) as total from hr_leave_ledger where tenant_id = $1 and employee_id = $2 group by leave_type_id');
const pendingOf = lean(HrLeaveRequest, { columns: ['leaveTypeId', 'days'], where: "employee_id = $1 and status = 'pending'" });
const latestMovements = lean(HrLeaveLedgerEntry, { where: 'employee_id = $1', orderBy: 'id desc', limit: BALANCE_MOVEMENTS });

/** An employee's balance per leave type that tracks one (archived ones included) or has movements, computed from the ledger (never a stored counter). */
export async function getLeaveBalance(ctx: TenantContext, employeeId: string): Promise<LeaveBalance> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  const [allTypes, sums, pending, movements] = await Promise.all([
    listLeaveTypes(ctx),
    ledgerSums(ctx.services.orm, [ctx.tenantId, employee.id]),
    pendingOf.all(ctx, employee.id),
    latestMovements.all(ctx, employee.id),
  ]);
  // A type that stopped keeping a balance still shows what its ledger holds.
  const types = allTypes.filter((t) => t.tracksBalance || sums.some((s) => s.leave_type_id === t.id));
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
