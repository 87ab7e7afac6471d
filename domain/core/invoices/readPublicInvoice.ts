import type { Invoice } from '../../../entities/core/invoice';
import { notFound } from '../../../lib/errors';
import type { Services } from '../../services';
import { tenantContext } from '../../context';
import { verifyInvoiceToken } from './customerLinks';
import { getInvoicePdf } from './getInvoicePdf';
import { invoiceOfAnyTenant } from './store';

/** The issued invoice (or credit note) a signed link names, with its organisation; 404 for a bad token or a draft. */
export async function readPublicInvoice(services: Services, token: string): Promise<Invoice> {
  const id = verifyInvoiceToken(services, token);
  const invoice = id ? await invoiceOfAnyTenant(services.orm.em.fork(), id) : null;
  if (!invoice || invoice.status === 'draft') throw notFound('Invoice');
  return invoice;
}

/** Its PDF (Factur-X), read in the invoice's organisation. */
export async function readPublicInvoicePdf(
  services: Services,
  token: string,
): Promise<{ invoice: Invoice; pdf: Uint8Array }> {
  const found = await readPublicInvoice(services, token);
  const { invoice, pdf } = await getInvoicePdf(tenantContext(services, found.tenantId).em, found.id);
  return { invoice, pdf };
}
