import type { Invoice } from '../../../../entities/core/invoice';
import { QuoteInvoice, type QuoteInvoiceKind } from '../../../../entities/core/quote';
import { conflict, invalidField } from '../../../../lib/errors';
import type { TenantContext } from '../../../context';
import { createInvoice } from '../createInvoice';
import type { DraftProps } from '../draft';
import { findInvoice } from '../store';
import { balanceLines, depositLines, lineInputOf } from './rules';
import { findQuote, invoicesOfQuote } from './store';

export interface ConvertQuoteProps {
  /** full: the whole quote; deposit: depositPercent of it; balance: what the deposit left. Default full. */
  mode?: QuoteInvoiceKind;
  /** With mode deposit: 0.01 to 99.99. */
  depositPercent?: number;
}

const converted = (kind: string, invoiceId: string) =>
  conflict('quote_already_converted', `The quote already has its ${kind} invoice ${invoiceId}`);

/**
 * Makes an invoice draft from an accepted quote with createInvoice, under the quote's row lock: the whole quote
 * (full), a deposit for a percentage of each VAT breakdown, or, once the deposit invoice is issued, the balance
 * referring to it. Each kind once (409 quote_already_converted; unique (quote, kind) in the database too);
 * full excludes deposit and balance. 409 quote_not_accepted, quote_no_deposit, deposit_not_issued.
 */
export async function convertQuote(ctx: TenantContext, id: string, props: ConvertQuoteProps): Promise<Invoice> {
  const mode = props.mode ?? 'full';
  if (mode === 'deposit' && props.depositPercent === undefined)
    throw invalidField('depositPercent', 'depositPercent is required with mode deposit');
  if (mode !== 'deposit' && props.depositPercent !== undefined)
    throw invalidField('depositPercent', 'depositPercent only goes with mode deposit');
  return ctx.em.transactional(async (em) => {
    const tx = { ...ctx, em };
    const quote = await findQuote(em, id, { lock: true });
    if (quote.status !== 'accepted') throw conflict('quote_not_accepted', 'Only an accepted quote becomes an invoice');
    const made = await invoicesOfQuote(em, quote.id);
    const of = (kind: QuoteInvoiceKind) => made.find((m) => m.kind === kind);
    const full = of('full');
    const deposit = of('deposit');
    if (full) throw converted('full', full.invoiceId);
    const base: Omit<DraftProps, 'lines'> = {
      customerId: quote.customerId,
      currency: quote.currency,
      ...(quote.paymentTerms ? { paymentTerms: quote.paymentTerms } : {}),
      orderReference: quote.number!,
      buyer: {
        ...(quote.buyerOverrides.vatNumber ? { vatNumber: quote.buyerOverrides.vatNumber } : {}),
        ...(quote.buyerOverrides.legalId ? { legalId: quote.buyerOverrides.legalId } : {}),
        ...(quote.buyerOverrides.address
          ? {
              address: {
                line1: quote.buyerOverrides.address.line1,
                ...(quote.buyerOverrides.address.line2 ? { line2: quote.buyerOverrides.address.line2 } : {}),
                ...(quote.buyerOverrides.address.postalCode
                  ? { postalCode: quote.buyerOverrides.address.postalCode }
                  : {}),
                ...(quote.buyerOverrides.address.city ? { city: quote.buyerOverrides.address.city } : {}),
                country: quote.buyerOverrides.address.country,
              },
            }
          : {}),
      },
    };
    let invoice: Invoice;
    let percentBp: number | null = null;
    if (mode === 'full') {
      if (deposit) throw converted('deposit', deposit.invoiceId);
      invoice = await createInvoice(tx, {
        ...base,
        lines: quote.lines.map(lineInputOf),
        note: `Devis ${quote.number} accepté`,
      });
    } else if (mode === 'deposit') {
      if (deposit) throw converted('deposit', deposit.invoiceId);
      percentBp = Math.round(props.depositPercent! * 100);
      invoice = await createInvoice(tx, {
        ...base,
        lines: depositLines(quote, percentBp),
        note: `Facture d'acompte de ${percentBp / 100} % du devis ${quote.number}`,
      });
    } else {
      if (!deposit) throw conflict('quote_no_deposit', 'The quote has no deposit invoice: convert it in full instead');
      const balance = of('balance');
      if (balance) throw converted('balance', balance.invoiceId);
      const depositInvoice = await findInvoice(em, deposit.invoiceId);
      if (!depositInvoice.number)
        throw conflict(
          'deposit_not_issued',
          'Issue the deposit invoice first: the balance invoice refers to its number',
        );
      const lines = balanceLines(quote, deposit.depositPercentBp!, depositInvoice.number);
      if (!lines.length) throw conflict('quote_nothing_left', 'The deposit covers the whole quote');
      invoice = await createInvoice(tx, {
        ...base,
        lines,
        note: `Solde du devis ${quote.number} ; acompte : facture ${depositInvoice.number}`,
      });
    }
    em.create(QuoteInvoice, {
      tenantId: ctx.tenantId,
      quoteId: quote.id,
      kind: mode,
      invoiceId: invoice.id,
      depositPercentBp: percentBp,
    });
    await em.flush();
    return invoice;
  });
}
