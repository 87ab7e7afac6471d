import { EInvoiceSubmission } from '../../../../entities/core/einvoice';
import type { Invoice } from '../../../../entities/core/invoice';
import type { Em } from '../../../../lib/db';
import type { StagedJob } from '../../../../entities/jobs/stagedJob';
import { emitStatus } from './emitStatus';

/**
 * "Encaissée" (212): when a payment settles an issued invoice that was submitted to the platform, the status is
 * written with the payment, in its transaction, and sent by its staged job. An invoice never submitted has no one
 * to tell; an invoice is paid once (then `invoice_settled`), and the unique (invoice, status) makes it once anyway.
 */
export async function emitCollected(em: Em, tenantId: string, invoice: Invoice): Promise<StagedJob | null> {
  if (invoice.kind !== 'invoice' || invoice.status !== 'paid') return null;
  const submitted = await em.count(EInvoiceSubmission, { invoiceId: invoice.id });
  return submitted ? emitStatus(em, tenantId, { invoiceId: invoice.id }, 'collected', null) : null;
}
