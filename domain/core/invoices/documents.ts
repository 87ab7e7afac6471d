import type { Invoice } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import { notIssued } from './lookup';
import { findInvoice } from './store';

/** An issued document and, for a credit note, the invoice it corrects (BT-25/26); 409 invoice_not_issued for a draft. */
export async function issuedDocument(em: Em, id: string): Promise<{ invoice: Invoice; credited?: Invoice }> {
  const invoice = await findInvoice(em, id);
  if (invoice.status === 'draft') throw notIssued();
  return {
    invoice,
    credited: invoice.creditedInvoiceId ? await findInvoice(em, invoice.creditedInvoiceId) : undefined,
  };
}
