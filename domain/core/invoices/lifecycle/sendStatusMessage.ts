import { Invoice } from '../../../../entities/core/invoice';
import { EInvoiceSubmission } from '../../../../entities/core/einvoice';
import { SupplierInvoice } from '../../../../entities/core/supplierInvoice';
import { einvoicePlatform, PlatformError, type StatusReport } from '../../../../lib/einvoice';
import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { findStatusMessage } from './store';

/** What the platform is told about the document a message reports on. */
async function reportOf(services: Services, tenantId: string, messageId: string) {
  const { em } = tenantContext(services, tenantId);
  const message = await findStatusMessage(em, messageId);
  if (!message) return null;
  let report: Omit<StatusReport, 'status' | 'code' | 'reason' | 'at'>;
  if (message.supplierInvoiceId) {
    const received = await em.findOneOrFail(
      SupplierInvoice,
      { id: message.supplierInvoiceId },
      { exclude: ['original'] },
    );
    report = {
      documentId: null,
      invoice: { number: received.number, issueDate: received.issueDate, sellerSiren: received.seller.siren },
    };
  } else {
    const issued = await em.findOneOrFail(Invoice, { id: message.invoiceId! });
    const submission = await em.findOne(EInvoiceSubmission, { invoiceId: issued.id });
    report = {
      documentId: submission?.platformId ?? null,
      invoice: { number: issued.number!, issueDate: issued.issueDate!, sellerSiren: issued.seller?.legalId ?? null },
    };
  }
  return { em, message, report };
}

/**
 * The job of a status message: reports it to the platform with the message id as Idempotency-Key (a retried or
 * replayed job reports it once), then records it sent. A message sent already is left alone; without a configured
 * platform it is recorded not_sent (nothing to tell it to). A platform outage throws, for the queue to retry;
 * a refusal of the platform (a permanent 4xx) is recorded failed with its reason.
 */
export async function sendStatusMessage(services: Services, tenantId: string, messageId: string): Promise<void> {
  const found = await reportOf(services, tenantId, messageId);
  if (!found || found.message.state === 'sent') return;
  const { em, message, report } = found;
  const platform = einvoicePlatform(services.config);
  if (!platform) {
    Object.assign(message, { state: 'not_sent', lastError: 'no e-invoicing platform is configured' });
    await em.flush();
    return;
  }
  message.attempts += 1;
  try {
    const sent = await platform.sendStatus(
      { ...report, status: message.status, code: message.code, reason: message.reason ?? null, at: message.createdAt },
      message.id,
    );
    Object.assign(message, { state: 'sent', sentAt: new Date(), platformMessageId: sent.id, lastError: null });
    await em.flush();
  } catch (err) {
    const permanent = err instanceof PlatformError && err.permanent;
    Object.assign(message, {
      state: permanent ? 'failed' : 'queued',
      lastError: (err as Error).message.slice(0, 1000),
    });
    await em.flush();
    if (!permanent) throw err;
  }
}

/** After the last attempt: the message is failed, with the last error. */
export async function failStatusMessage(services: Services, tenantId: string, messageId: string, error: string) {
  const { em } = tenantContext(services, tenantId);
  const message = await findStatusMessage(em, messageId);
  if (!message || message.state === 'sent') return;
  Object.assign(message, { state: 'failed', lastError: error.slice(0, 1000) });
  await em.flush();
}
