import { newId } from '../../../entities/base';
import { HrWeekCounter } from '../../../entities/hr/timeCounter';
import { pgArray, type Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import type { WeekTime } from '../workedTime';

/** The time counter statements: closed weekly counters (immutable, one per employee and week). */

/** Inserts the closed counters of a week, skipping those already closed (the unique index); the employees of the new ones. */
export async function insertWeekCounters(
  em: Em,
  tenantId: string,
  rows: (WeekTime & { employeeId: string; corrected: boolean })[],
): Promise<string[]> {
  if (!rows.length) return [];
  const now = new Date();
  const values = rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const params = rows.flatMap((r) => [
    newId(),
    tenantId,
    now,
    r.employeeId,
    r.week,
    r.minutes,
    r.nightMinutes,
    r.sundayMinutes,
    r.scheduledMinutes,
    r.overtimeFirstMinutes,
    r.overtimeSecondMinutes,
    r.replacementRestMinutes,
    r.corrected,
  ]);
  const result = await em.execute<{ employee_id: string }[]>(
    `insert into hr_week_counters (id, tenant_id, created_at, employee_id, week, minutes, night_minutes, sunday_minutes, scheduled_minutes, overtime_first_minutes, overtime_second_minutes, replacement_rest_minutes, corrected) values ${values} on conflict do nothing returning employee_id`,
    params,
  );
  return result.map((r) => r.employee_id);
}

/**
 * The overtime of some employees' closed weeks of Mondays `from` to before `before` that counts against the
 * annual contingent (weeks compensated by replacement rest do not, L3121-30): minutes by employee.
 */
export async function contingentUsed(em: Em, employeeIds: string[], from: string, before: string) {
  if (!employeeIds.length) return new Map<string, number>();
  const rows = await em.execute<{ employee_id: string; minutes: number }[]>(
    `select employee_id, sum(overtime_first_minutes + overtime_second_minutes)::int as minutes from hr_week_counters
     where employee_id = any(?::uuid[]) and week >= ?::date and week < ?::date and replacement_rest_minutes = 0 group by employee_id`,
    [pgArray(employeeIds), from, before],
  );
  return new Map(rows.map((r) => [r.employee_id, r.minutes]));
}

// A lean statement (docs/database-path.md).
/** $1 employee, $2 first Monday, $3 last Monday: the closed counters, oldest first. */
export const weekCountersOf = lean(HrWeekCounter, {
  where: 'employee_id = $1 and week >= $2::date and week <= $3::date',
  orderBy: 'week asc',
});
