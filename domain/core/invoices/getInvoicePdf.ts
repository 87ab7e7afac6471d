import type { Invoice } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import { issuedDocument } from './documents';
import { renderFacturX } from './facturx';
import { renderInvoicePdf } from './invoicePdf';

/** GET .../pdf (and the e-invoice submission): the readable PDF with the same XML embedded. */
export async function getInvoicePdf(em: Em, id: string): Promise<{ invoice: Invoice; xml: string; pdf: Uint8Array }> {
  const { invoice, credited } = await issuedDocument(em, id);
  const xml = renderFacturX(invoice, credited);
  return { invoice, xml, pdf: await renderInvoicePdf(invoice, xml, credited) };
}
