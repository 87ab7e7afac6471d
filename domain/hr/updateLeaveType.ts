import type { HrLeaveType, LeaveCounting } from '../../entities/hr/leave';
import type { TenantContext } from '../context';
import { audit } from '../platform/audit';
import { checkLeaveTypeSettings, findLeaveType } from './leaveTypes';

/** What an organisation may change of a leave type (its code is its key and stays). */
export interface UpdateLeaveTypeProps {
  name?: string;
  paid?: boolean;
  tracksBalance?: boolean;
  accrualDaysPerMonth?: number;
  rtt?: boolean;
  counting?: LeaveCounting;
  /** true archives it (no new request nor accrual), false puts it back in use. */
  archived?: boolean;
}

/**
 * Edits a leave type (say to the accrual and counting of a collective agreement), or archives it. Changes apply
 * from now on: the next accrual credits the new rate, the next request counts the new way; ledger movements
 * and the days of filed requests keep what they were (a cancellation gives back what a request held). An
 * archived type takes no new request nor accrual, and stays in the history and the balances. 404 for another
 * organisation's type; 400 when the settings do not hold together (checkLeaveTypeSettings). Audited with the
 * fields changed, before and after.
 */
export async function updateLeaveType(
  ctx: TenantContext,
  id: string,
  props: UpdateLeaveTypeProps,
): Promise<HrLeaveType> {
  return ctx.em.transactional(async (em) => {
    const type = await findLeaveType(ctx, id, em);
    const before = {
      name: type.name,
      paid: type.paid,
      tracksBalance: type.tracksBalance,
      accrualDaysPerMonth: Number(type.accrualDaysPerMonth),
      rtt: type.rtt,
      counting: type.counting,
      archived: type.archivedAt !== null,
    };
    const after = { ...before, ...definedOf(props), ...(props.name !== undefined ? { name: props.name.trim() } : {}) };
    checkLeaveTypeSettings(after);
    Object.assign(type, {
      name: after.name,
      paid: after.paid,
      tracksBalance: after.tracksBalance,
      accrualDaysPerMonth: after.accrualDaysPerMonth,
      rtt: after.rtt,
      counting: after.counting,
    });
    if (after.archived !== before.archived) type.archivedAt = after.archived ? new Date() : null;
    const changes = Object.fromEntries(
      (Object.keys(before) as (keyof typeof before)[])
        .filter((k) => before[k] !== after[k])
        .map((k) => [k, { from: before[k], to: after[k] }]),
    );
    if (Object.keys(changes).length)
      audit(em, {
        action: 'hr.leave_type.updated',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'hr_leave_type',
        targetId: type.id,
        data: { changes },
      });
    return type;
  });
}

/** The props given (an absent field changes nothing). */
const definedOf = (props: UpdateLeaveTypeProps): Partial<UpdateLeaveTypeProps> =>
  Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));
