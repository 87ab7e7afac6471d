import type { HrWeekCounter } from '../../entities/hr/timeCounter';
import { addDays, dayNumber, todayIn } from '../../lib/calendar';
import { invalidField } from '../../lib/errors';
import type { Lean } from '../../lib/lean';
import type { TenantContext } from '../context';
import { employeeInReadScope, readScope } from './lookup';
import { weekCountersOf } from './store/counters';
import { weekOf } from './workedTime';

/** Longest range of one read, in weeks (two years). */
export const MAX_COUNTER_WEEKS = 106;

/**
 * The closed week counters of an employee whose Mondays fall in the weeks holding `from` .. `to` (default: the 12
 * weeks before today in the employee's zone), oldest first. A member reads only their own (as other employee reads).
 */
export async function listWeekCounters(
  ctx: TenantContext,
  employeeId: string,
  range: { from?: string; to?: string },
): Promise<Lean<HrWeekCounter>[]> {
  const employee = await employeeInReadScope(ctx, await readScope(ctx), employeeId);
  const to = weekOf(range.to ?? todayIn(employee.timeZone));
  const from = weekOf(range.from ?? addDays(to, -7 * 12));
  if (from > to) throw invalidField('from', 'must be on or before to');
  if ((dayNumber(to) - dayNumber(from)) / 7 >= MAX_COUNTER_WEEKS)
    throw invalidField('to', `must be within ${MAX_COUNTER_WEEKS} weeks of from`);
  return weekCountersOf.all(ctx, employee.id, from, to);
}
