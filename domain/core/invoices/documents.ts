import type { Invoice } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import type { TenantContext } from '../../context';
import { renderFacturX } from './facturx';
import { renderInvoicePdf } from './invoicePdf';
import { notIssued } from './lookup';
import { findInvoice } from './store';

/** An issued document and, for a credit note, the invoice it corrects (BT-25/26); 409 invoice_not_issued for a draft. */
export async function issuedDocument(em: Em, id: string): Promise<{ invoice: Invoice; credited?: Invoice }> {
  const invoice = await findInvoice(em, id);
  if (invoice.status === 'draft') throw notIssued();
  return { invoice, credited: invoice.creditedInvoiceId ? await findInvoice(em, invoice.creditedInvoiceId) : undefined };
}

/** GET .../einvoice/factur-x.xml */
export async function facturXml(ctx: TenantContext, id: string): Promise<{ invoice: Invoice; xml: string }> {
  const { invoice, credited } = await issuedDocument(ctx.em, id);
  return { invoice, xml: renderFacturX(invoice, credited) };
}

/** GET .../pdf: the readable PDF with the same XML embedded. */
export async function invoicePdf(em: Em, id: string): Promise<{ invoice: Invoice; xml: string; pdf: Uint8Array }> {
  const { invoice, credited } = await issuedDocument(em, id);
  const xml = renderFacturX(invoice, credited);
  return { invoice, xml, pdf: await renderInvoicePdf(invoice, xml, credited) };
}
