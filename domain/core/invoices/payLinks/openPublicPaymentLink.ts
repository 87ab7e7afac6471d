import { tenantContext } from '../../../context';
import type { Services } from '../../../services';
import { readPublicInvoice } from '../readPublicInvoice';
import { openPaymentLink, type PaymentLink } from './openPaymentLink';

/**
 * The payment page opened from the customer's signed link (no account): the invoice the token names, in its
 * organisation, as openPaymentLink. 404 for a bad token or a draft.
 */
export async function openPublicPaymentLink(services: Services, token: string): Promise<PaymentLink> {
  const invoice = await readPublicInvoice(services, token);
  return openPaymentLink(tenantContext(services, invoice.tenantId), invoice.id);
}
