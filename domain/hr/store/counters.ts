import { newId } from '../../../entities/base';
import { HrWeekCounter } from '../../../entities/hr/timeCounter';
import type { Em } from '../../../lib/db';
import { lean } from '../../../lib/lean';
import type { WeekTime } from '../workedTime';

/** The time counter statements: closed weekly counters (immutable, one per employee and week). */

/** Inserts the closed counters of a week, skipping those already closed (the unique index); how many were new. */
export async function insertWeekCounters(
  em: Em,
  tenantId: string,
  rows: (WeekTime & { employeeId: string; corrected: boolean })[],
): Promise<number> {
  if (!rows.length) return 0;
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
  const result = await em.execute<{ id: string }[]>(
    `insert into hr_week_counters (id, tenant_id, created_at, employee_id, week, minutes, night_minutes, sunday_minutes, scheduled_minutes, overtime_first_minutes, overtime_second_minutes, replacement_rest_minutes, corrected) values ${values} on conflict do nothing returning id`,
    params,
  );
  return result.length;
}

// A lean statement (docs/database-path.md).
/** $1 employee, $2 first Monday, $3 last Monday: the closed counters, oldest first. */
export const weekCountersOf = lean(HrWeekCounter, {
  where: 'employee_id = $1 and week >= $2::date and week <= $3::date',
  orderBy: 'week asc',
});
