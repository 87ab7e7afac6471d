import { MailMessage } from '../../../entities/platform/mail';
import type { Invoice } from '../../../entities/core/invoice';
import type { Em } from '../../../lib/db';
import type { Services } from '../../services';
import { decimalIn } from './currencies';
import { invoiceLink, invoicePdfLink } from './customerLinks';

/**
 * The mail that hands an issued invoice to its customer (template `core_invoice`), written into the outbox in the
 * caller's transaction: amount, due date and the signed link to read it and download its PDF (the mail layer has
 * no attachments), and the payment link when the organisation takes payments online (payUrlOf). `dedupeKey` makes
 * a mail of a job go out once.
 */
export function composeInvoiceMail(
  em: Em,
  services: Services,
  invoice: Invoice,
  to: string,
  { dedupeKey = null, payUrl = null }: { dedupeKey?: string | null; payUrl?: string | null } = {},
): MailMessage {
  const seller = invoice.seller?.name ?? '';
  const credit = invoice.kind === 'credit_note';
  return em.create(MailMessage, {
    tenantId: invoice.tenantId,
    to,
    template: 'core_invoice',
    subject: `${credit ? 'Avoir' : 'Facture'} ${invoice.number} - ${seller}`.slice(0, 200),
    text: [
      `${seller} vous adresse ${credit ? "l'avoir" : 'la facture'} ${invoice.number} d'un montant de ${decimalIn(invoice.grandTotalCents, invoice.currency)} ${invoice.currency} TTC${!credit && invoice.dueDate ? `, à régler au plus tard le ${invoice.dueDate.split('-').reverse().join('/')}` : ''}.`,
      `Consulter ${credit ? "l'avoir" : 'la facture'} : ${invoiceLink(services, invoice.id)}`,
      `Le document en PDF (Factur-X) : ${invoicePdfLink(services, invoice.id)}`,
      ...(payUrl ? [`Payer en ligne : ${payUrl}`] : []),
    ].join('\n\n'),
    dedupeKey,
  });
}

/** Where an invoice is mailed: the buyer's address printed on it. */
export const invoiceRecipient = (invoice: Invoice): string | null => invoice.buyer?.email || null;
