import { EInvoiceEvent, EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { einvoicePlatform } from '../../../../lib/einvoice';
import { unavailable } from '../../../../lib/errors';
import { einvoiceQueue } from '../../../../queues/einvoice';
import type { TenantContext } from '../../../context';
import { findInvoice, notIssued } from '../lookup';
import { getEInvoice, type EInvoiceState } from './getEInvoice';

/**
 * Queues an issued document for the e-invoicing platform: records the submission (status queued) once per
 * document, then enqueues its job (job id einvoice.submit.<invoiceId>). Submitting again answers the existing
 * submission unchanged (`created` false) and enqueues nothing new. No platform configured: 503
 * einvoice_platform_not_configured.
 */
export async function submitEInvoice(ctx: TenantContext, invoiceId: string): Promise<{ state: EInvoiceState; created: boolean }> {
  await findInvoice(ctx.em, invoiceId);
  const platform = einvoicePlatform(ctx.services.config);
  if (!platform) throw unavailable('einvoice_platform_not_configured', 'No e-invoicing platform is configured (EINVOICE_PLATFORM_URL)');
  const created = await ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, invoiceId, { lock: true });
    if (invoice.status === 'draft') throw notIssued();
    if (await em.findOne(EInvoiceSubmission, { invoiceId })) return false;
    em.create(EInvoiceSubmission, { tenantId: ctx.tenantId, invoiceId, status: 'queued', platform: platform.name, platformId: null, submittedAt: null, attempts: 0, lastError: null });
    em.create(EInvoiceEvent, { tenantId: ctx.tenantId, invoiceId, status: 'queued', occurredAt: new Date(), detail: `queued for ${platform.name}`, platformEventId: null });
    return true;
  });
  if (created) await ctx.services.queues.add(einvoiceQueue, { kind: 'submit', tenantId: ctx.tenantId, invoiceId }, { jobId: `einvoice.submit.${invoiceId}` });
  return { state: await getEInvoice(ctx, invoiceId), created };
}
