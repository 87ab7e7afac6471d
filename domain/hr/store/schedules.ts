import { HrSchedule } from '../../../entities/hr/schedule';
import type { Em } from '../../../lib/db';
import { lean, type LeanScope } from '../../../lib/lean';

/** The schedule statements: the versions of each employee's weekly schedule. */

/** Every schedule version of an employee, oldest first. */
export const scheduleVersions = (em: Em, employeeId: string) =>
  em.find(HrSchedule, { employeeId }, { orderBy: { effectiveFrom: 'asc' } });

/** The version of an employee's schedule starting on a date, if any. */
export const scheduleVersionFrom = (em: Em, employeeId: string, effectiveFrom: string) =>
  em.findOne(HrSchedule, { employeeId, effectiveFrom });

/** The versions of several employees, oldest first. */
export const scheduleVersionsOfEmployees = (em: Em, employeeIds: string[]) =>
  em.find(HrSchedule, { employeeId: { $in: employeeIds } }, { orderBy: { effectiveFrom: 'asc' } });

// Lean statements (docs/database-path.md) for the reads that only present or compute with the versions.
const versionsOldestFirst = lean(HrSchedule, { where: 'employee_id = $1', orderBy: 'effective_from asc' });

/** scheduleVersions as lean rows, for a read that only presents them (GET schedule). */
export const scheduleVersionRows = (ctx: LeanScope, employeeId: string) => versionsOldestFirst.all(ctx, employeeId);

/** $1 employee ids: what availability computes with of their versions, oldest first. */
export const versionsOfEmployees = lean(HrSchedule, {
  columns: ['employeeId', 'effectiveFrom', 'timeZone', 'slots'],
  where: 'employee_id = any($1::uuid[])',
  orderBy: 'effective_from asc, id asc',
});
