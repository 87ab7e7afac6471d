import type { HrLeaveType } from '../../entities/hr/leave';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { ensureDefaultLeaveTypes, hasDefaultLeaveTypes } from './leaveTypes';
import { leaveTypesByCode } from './store/leave';

/** The organisation's leave types, defaults included, by code. */
export async function listLeaveTypes(ctx: TenantContext): Promise<Lean<HrLeaveType>[]> {
  // Read first; only an organisation still missing a default makes them (em) and reads again.
  const types = await leaveTypesByCode.all(ctx);
  if (hasDefaultLeaveTypes(types.map((t) => t.code))) return types;
  await ensureDefaultLeaveTypes(ctx.em, ctx.tenantId);
  return leaveTypesByCode.all(ctx);
}
