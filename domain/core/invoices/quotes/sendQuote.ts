import { MailMessage } from '../../../../entities/platform/mail';
import type { Quote } from '../../../../entities/core/quote';
import { conflict } from '../../../../lib/errors';
import { audit } from '../../../platform/audit';
import { dispatchMails } from '../../../platform/mail';
import type { TenantContext } from '../../../context';
import { getCustomer } from '../../crm/getCustomer';
import { buyerOf } from '../buyer';
import { decimalIn } from '../currencies';
import { invoiceToday } from '../lookup';
import { loadSeller } from '../seller';
import { readInvoiceSettings } from '../settings';
import { quoteLink, quotePdfLink } from './links';
import { formatQuoteNumber } from './rules';
import { findQuote, nextQuoteSequenceNo, quoteNumberTaken } from './store';
import { quoteNotDraft } from './updateQuote';

/**
 * Sends a draft: in one transaction, locks it, takes the next number of the organisation's quote sequence (its
 * counter row locked until commit: gapless, the trigger refuses a gap), dates it today, copies seller and buyer,
 * and writes the mail to the customer (its signed link to read, download the PDF, accept or decline) into the
 * outbox; the mail job is enqueued once committed. 409 quote_not_draft, quote_expired (validity date passed),
 * quote_no_recipient (the customer has no e-mail address).
 */
export async function sendQuote(ctx: TenantContext, id: string): Promise<Quote> {
  const { quote, mail } = await ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    const quote = await findQuote(em, id, { lock: true });
    if (quote.status !== 'draft') throw quoteNotDraft(quote);
    const issueDate = invoiceToday();
    if (quote.validUntil < issueDate) throw conflict('quote_expired', 'The validity date has passed: change it first');
    const customer = await getCustomer(tx, quote.customerId);
    const buyer = buyerOf(customer, quote.buyerOverrides);
    if (!buyer.email) throw conflict('quote_no_recipient', 'The customer has no e-mail address to send the quote to');
    const seller = await loadSeller(tx);
    const settings = await readInvoiceSettings(em, ctx.tenantId);
    const year = settings.yearlyReset ? Number(issueDate.slice(0, 4)) : 0;
    const sequenceNo = await nextQuoteSequenceNo(em, ctx.tenantId, year);
    const number = formatQuoteNumber(sequenceNo, issueDate, settings.digits);
    if (await quoteNumberTaken(em, number))
      throw conflict('quote_number_taken', `Quote number ${number} is already used`);
    em.assign(quote, {
      status: 'sent',
      number,
      sequenceYear: year,
      sequenceNo,
      issueDate,
      sentAt: new Date(),
      paymentTerms: quote.paymentTerms ?? settings.paymentTerms,
      seller,
      buyer,
    });
    const mail = em.create(MailMessage, {
      tenantId: ctx.tenantId,
      to: buyer.email,
      template: 'core_quote',
      subject: `Devis ${number} - ${seller.name}`.slice(0, 200),
      text: [
        `${seller.name} vous adresse le devis ${number} d'un montant de ${decimalIn(quote.grandTotalCents, quote.currency)} ${quote.currency} TTC, valable jusqu'au ${quote.validUntil}.`,
        `Consulter, accepter ou refuser le devis : ${quoteLink(ctx.services, quote.id)}`,
        `Le devis en PDF : ${quotePdfLink(ctx.services, quote.id)}`,
      ].join('\n\n'),
      dedupeKey: `quote:${quote.id}`,
    });
    audit(em, {
      action: 'core.quote.sent',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'quote',
      targetId: quote.id,
      data: { number },
    });
    return { quote, mail };
  });
  await dispatchMails(ctx.services, [mail]);
  return quote;
}
