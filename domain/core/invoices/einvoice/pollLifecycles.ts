import { EInvoiceSubmission, type EInvoiceStatus } from '../../../../entities/core/einvoice';
import { einvoicePlatform, type EInvoicePlatform } from '../../../../lib/einvoice';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { platformEventsSeen, takeSubmissionsToPoll } from '../store';
import { moveTo } from './moveTo';

const lifecycleStatuses = new Set<EInvoiceStatus>([
  'submitted',
  'rejected',
  'delivered',
  'received',
  'approved',
  'disputed',
  'refused',
  'paid',
]);

/**
 * Reads the lifecycle of the submitted documents whose status is not final (every organisation), at most `limit`
 * a run: those polled longest ago first, never polled ones before them. The run stamps `polledAt` on the ones it
 * takes before reading them, so a document with no news, or whose read fails, goes to the back of the line and
 * every open document is read in turn, however many there are. Records the events not seen yet (unique per
 * platform event id) and moves each submission to its latest event's status; run again, it records nothing twice.
 * One document's failure does not stop the others.
 */
export async function pollLifecycles(services: Services, limit = 500): Promise<{ polled: number; changed: number }> {
  const platform = einvoicePlatform(services.config);
  if (!platform) return { polled: 0, changed: 0 };
  // One statement: two runs at once (a slow run overlapping the next slot) take different documents.
  const taken = await takeSubmissionsToPoll(services.orm.em.fork(), limit);
  let changed = 0;
  for (const row of taken) {
    try {
      if (await refreshOne(services, platform, row.tenant_id, row.id)) changed += 1;
    } catch (err) {
      services.logger.warn({ invoiceId: row.invoice_id, err: (err as Error).message }, 'e-invoice lifecycle not read');
    }
  }
  return { polled: taken.length, changed };
}

async function refreshOne(
  services: Services,
  platform: EInvoicePlatform,
  tenantId: string,
  id: string,
): Promise<boolean> {
  const ctx = tenantContext(services, tenantId);
  const submission = await ctx.em.findOneOrFail(EInvoiceSubmission, { id });
  const events = (await platform.lifecycle(submission.platformId!))
    .filter((e) => lifecycleStatuses.has(e.status as EInvoiceStatus))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  const seen = await platformEventsSeen(ctx.em, submission.invoiceId);
  const fresh = events.filter((e) => !seen.has(e.id));
  for (const e of fresh) await moveTo(services, ctx.em, submission, e.status as EInvoiceStatus, e.reason, e.id, e.at);
  return fresh.length > 0;
}
