import type { Invoice } from '../../../entities/core/invoice';
import { conflict } from '../../../lib/errors';
import { audit } from '../../platform/audit';
import { dispatchMails } from '../../platform/mail';
import type { TenantContext } from '../../context';
import { composeInvoiceMail, invoiceRecipient } from './invoiceMail';
import { notIssued } from './lookup';
import { payUrlOf } from './payLinks/payUrl';
import { findInvoice } from './store';

/**
 * Mails an issued invoice or credit note to the buyer's address printed on it, with the signed customer link
 * (read, PDF) and, when the organisation takes payments online, the payment link. Each call mails once more (a reminder of its own). 409 invoice_not_issued for a draft,
 * invoice_no_recipient when the buyer has no e-mail address.
 */
export async function sendInvoice(ctx: TenantContext, id: string): Promise<Invoice> {
  const { invoice, mail } = await ctx.em.transactional(async (em) => {
    const invoice = await findInvoice(em, id);
    if (invoice.status === 'draft') throw notIssued();
    const to = invoiceRecipient(invoice);
    if (!to) throw conflict('invoice_no_recipient', 'The buyer has no e-mail address to send the invoice to');
    const payUrl = await payUrlOf(ctx.services, em, invoice);
    const mail = composeInvoiceMail(em, ctx.services, invoice, to, { payUrl });
    audit(em, {
      action: 'core.invoice.sent',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
      data: { number: invoice.number, to },
    });
    return { invoice, mail };
  });
  await dispatchMails(ctx.services, [mail]);
  return invoice;
}
