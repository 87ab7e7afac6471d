import type { RecurringInvoice } from '../../../../entities/core/recurringInvoice';
import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { invoiceToday } from '../lookup';
import { nextPeriodFrom, runDateWithin } from './periods';
import { recurringEnded } from './pauseRecurringInvoice';
import { findSchedule } from './store';

/**
 * Resumes a paused recurring invoice at the first period whose day is today or later: the periods of the pause
 * are not invoiced afterwards (a clock outage, by contrast, is caught up). Resuming past its end ends it. 409
 * recurring_invoice_ended once ended; resuming an active one changes nothing.
 */
export async function resumeRecurringInvoice(ctx: TenantContext, id: string): Promise<RecurringInvoice> {
  return ctx.em.transactional(async (em) => {
    const schedule = await findSchedule(em, id, { lock: true });
    if (schedule.status === 'ended') throw recurringEnded();
    if (schedule.status === 'paused') {
      const next = nextPeriodFrom(schedule, schedule.nextPeriod, invoiceToday());
      const nextRunOn = runDateWithin(schedule, next);
      em.assign(schedule, { status: nextRunOn ? 'active' : 'ended', nextPeriod: next, nextRunOn });
      audit(em, {
        action: 'core.recurring_invoice.resumed',
        actorId: ctx.userId,
        tenantId: ctx.tenantId,
        targetType: 'recurring_invoice',
        targetId: schedule.id,
      });
    }
    return schedule;
  });
}
