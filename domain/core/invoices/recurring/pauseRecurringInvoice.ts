import type { RecurringInvoice } from '../../../../entities/core/recurringInvoice';
import { conflict } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { findSchedule } from './store';

export const recurringEnded = () => conflict('recurring_invoice_ended', 'The recurring invoice has ended');

/** Pauses an active recurring invoice: the clock skips it (pausing a paused one changes nothing; 409 once ended). */
export async function pauseRecurringInvoice(ctx: TenantContext, id: string): Promise<RecurringInvoice> {
  return ctx.em.transactional(async (em) => {
    const schedule = await findSchedule(em, id, { lock: true });
    if (schedule.status === 'ended') throw recurringEnded();
    if (schedule.status === 'active') {
      schedule.status = 'paused';
      audit(em, {
        action: 'core.recurring_invoice.paused',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'recurring_invoice',
        targetId: schedule.id,
      });
    }
    return schedule;
  });
}
