import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { tenantColumns, tenantFilter } from '../base';

/** A leave type's line of a departure settlement: the balance when the employee left. */
export interface SettlementLine {
  leaveTypeId: string;
  code: string;
  name: string;
  counting: string;
  /** N-1 and N days, and their total. */
  previous: number;
  current: number;
  days: number;
  /** Paid leave (accruing at least the law's rate): paid out as indemnite compensatrice (L3141-28). */
  compensated: boolean;
}

/**
 * The leave balances of an employee who has left, frozen once (domain/hr/settleDeparture.ts): unique per
 * employee, immutable (the trigger of the other HR records refuses any change).
 */
export const HrDepartureSettlement = defineEntity({
  name: 'HrDepartureSettlement',
  tableName: 'hr_departure_settlements',
  filters: tenantFilter,
  uniques: [{ properties: ['tenantId', 'employeeId'] }],
  properties: {
    ...tenantColumns(),
    employeeId: p.uuid(),
    endDate: p.date(),
    lines: p.json<SettlementLine[]>(),
    settledBy: p.uuid().nullable(),
  },
});
export type HrDepartureSettlement = InferEntity<typeof HrDepartureSettlement>;
