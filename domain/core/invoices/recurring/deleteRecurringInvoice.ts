import { audit } from '../../../platform/audit';
import type { TenantContext } from '../../../context';
import { findSchedule } from './store';

/** Deletes a recurring invoice and its period records; the invoices it made stay as they are. */
export async function deleteRecurringInvoice(ctx: TenantContext, id: string): Promise<void> {
  await ctx.em.transactional(async (em) => {
    const schedule = await findSchedule(em, id, { lock: true });
    em.remove(schedule);
    audit(em, {
      action: 'core.recurring_invoice.deleted',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'recurring_invoice',
      targetId: schedule.id,
    });
  });
}
