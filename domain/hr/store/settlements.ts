import { newId } from '../../../entities/base';
import { HrDepartureSettlement, type SettlementLine } from '../../../entities/hr/settlement';
import type { Em } from '../../../lib/db';

/** The departure settlement statements: one frozen row per employee who has left. */

/** An employee's settlement, if made. */
export const settlementOf = (em: Em, employeeId: string) => em.findOne(HrDepartureSettlement, { employeeId });

/** Freezes a settlement; the unique key on organisation and employee refuses a second one. */
export async function insertSettlement(
  em: Em,
  row: { tenantId: string; employeeId: string; endDate: string; lines: SettlementLine[]; settledBy: string | null },
): Promise<Date> {
  const createdAt = new Date();
  await em.execute(
    'insert into hr_departure_settlements (id, tenant_id, created_at, employee_id, end_date, lines, settled_by) values (?, ?, ?, ?, ?, ?::jsonb, ?)',
    [newId(), row.tenantId, createdAt, row.employeeId, row.endDate, JSON.stringify(row.lines), row.settledBy],
  );
  return createdAt;
}
