import type { TenantContext } from '../context';
import { employeeAvailability, type Availability } from './availability';
import { employeeInReadScope, readScope } from './lookup';

/**
 * GET /api/rh/employees/{id}/availability: as the employee's other reads, a manager reads anyone's and a member
 * only their own (a colleague's answers 404, no record 403). The appointments module reads a team through
 * employeesAvailability, without this check (the business's own staff).
 */
export async function getAvailability(
  ctx: TenantContext,
  employeeId: string,
  range: { from: Date; to: Date },
): Promise<Availability> {
  const scope = await readScope(ctx);
  // A manager's unknown id is employeeAvailability's 404; anyone else is checked first (no query for their own).
  if (!scope.manager) await employeeInReadScope(ctx, scope, employeeId);
  return employeeAvailability(ctx, employeeId, range);
}
