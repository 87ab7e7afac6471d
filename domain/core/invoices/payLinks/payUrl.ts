import type { Invoice } from '../../../../entities/core/invoice';
import type { Em } from '../../../../lib/db';
import type { Services } from '../../../services';
import { readAccountingSettings } from '../accounting/accountingSettings';
import { invoicePayLink } from '../customerLinks';
import { outstandingOf } from '../settlement';

/**
 * The payment link shown with an invoice (the customer link, reminders): when the organisation enabled online
 * payment, payments are configured and something is outstanding; else null. `em` reads the invoice's organisation.
 */
export async function payUrlOf(services: Services, em: Em, invoice: Invoice): Promise<string | null> {
  if (!services.payments || invoice.kind !== 'invoice' || outstandingOf(invoice) === 0) return null;
  const settings = await readAccountingSettings(em, invoice.tenantId);
  return settings.onlinePaymentEnabled ? invoicePayLink(services, invoice.id) : null;
}
