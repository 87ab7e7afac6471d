import { HrLeaveType } from '../../entities/hr/leave';
import { invalidField, notFound } from '../../lib/errors';
import type { Em } from '../../lib/db';
import type { TenantContext } from '../context';
import { MONTHLY_PAID_LEAVE } from './accrual';
import { insertLeaveTypesIfMissing, leaveTypesWithCodes } from './store/leave';

/**
 * The leave types every organisation starts with (made on first use, codes reserved). Paid leave is the law's:
 * 2.5 jours ouvrables a month, spent in jours ouvrables (five weeks a year); RTT days are worked days.
 */
export const defaultLeaveTypes = [
  {
    code: 'paid',
    name: 'Congés payés',
    paid: true,
    tracksBalance: true,
    accrualDaysPerMonth: MONTHLY_PAID_LEAVE.ouvrables,
    rtt: false,
    counting: 'ouvrables',
  },
  { code: 'rtt', name: 'RTT', paid: true, tracksBalance: true, accrualDaysPerMonth: 0, rtt: true, counting: 'ouvres' },
  {
    code: 'sick',
    name: 'Arrêt maladie',
    paid: true,
    tracksBalance: false,
    accrualDaysPerMonth: 0,
    rtt: false,
    counting: 'ouvres',
  },
  {
    code: 'unpaid',
    name: 'Congé sans solde',
    paid: false,
    tracksBalance: false,
    accrualDaysPerMonth: 0,
    rtt: false,
    counting: 'ouvres',
  },
] as const;

/** Whether every default type is among these codes. */
export const hasDefaultLeaveTypes = (codes: string[]): boolean =>
  defaultLeaveTypes.every((d) => codes.includes(d.code));

/** Makes the default leave types of the organisation when missing (idempotent, safe concurrently). */
export async function ensureDefaultLeaveTypes(em: Em, tenantId: string): Promise<void> {
  if (
    (await leaveTypesWithCodes(
      em,
      defaultLeaveTypes.map((t) => t.code),
    )) === defaultLeaveTypes.length
  )
    return;
  await insertLeaveTypesIfMissing(em, tenantId, defaultLeaveTypes);
}

/** A leave type of the organisation, or 404. */
export async function findLeaveType(ctx: TenantContext, id: string, em: Em = ctx.em): Promise<HrLeaveType> {
  await ensureDefaultLeaveTypes(em, ctx.tenantId);
  const type = await em.findOne(HrLeaveType, { id });
  if (!type) throw notFound('Leave type');
  return type;
}

/**
 * 400 unless a type's settings hold together: only a type that keeps a balance can accrue or take RTT (credits
 * to a type without a ledger balance would show nowhere).
 */
export function checkLeaveTypeSettings(type: Pick<HrLeaveType, 'tracksBalance' | 'accrualDaysPerMonth' | 'rtt'>): void {
  if (!type.tracksBalance && (Number(type.accrualDaysPerMonth) > 0 || type.rtt))
    throw invalidField(
      'tracksBalance',
      'must be true for a type that accrues (accrualDaysPerMonth > 0) or takes RTT (rtt)',
    );
}
