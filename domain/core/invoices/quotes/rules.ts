import type { InvoiceLine, VatBreakdown } from '../../../../entities/core/invoice';
import type { Quote, QuoteStatus, QuoteViewStatus } from '../../../../entities/core/quote';
import { conflict } from '../../../../lib/errors';
import type { LineInput } from '../amounts';

/** Pure rules of quotes (no database): status seen, answerability, numbering, invoice lines from a quote. */

export const QUOTE_PREFIX = 'D-{YYYY}-';
/** Days a quote stays valid when the draft gives no validity date. */
export const DEFAULT_VALIDITY_DAYS = 30;

/** The status a reader sees: a sent quote whose validity date has passed is expired (it can no longer be accepted). */
export const viewStatus = (quote: Pick<Quote, 'status' | 'validUntil'>, today: string): QuoteViewStatus =>
  quote.status === 'sent' && quote.validUntil < today ? 'expired' : quote.status;

/** The quote number: D-{YYYY}- with the issue year, then the counter zero-padded to `digits`. */
export const formatQuoteNumber = (sequenceNo: number, issueDate: string, digits: number): string =>
  `${QUOTE_PREFIX.replaceAll('{YYYY}', issueDate.slice(0, 4))}${String(sequenceNo).padStart(digits, '0')}`;

/** Throws the 409 of a quote the customer may not answer (now): not sent, already answered, or expired. */
export function checkAnswerable(quote: Pick<Quote, 'status' | 'validUntil'>, today: string): void {
  const status = viewStatus(quote, today);
  if (status === 'draft') throw conflict('quote_not_sent', 'The quote has not been sent');
  if (status === 'accepted' || status === 'declined')
    throw conflict('quote_already_answered', `The quote was already ${status}`);
  if (status === 'expired') throw conflict('quote_expired', 'The quote is past its validity date');
}

export const isAnswered = (status: QuoteStatus) => status === 'accepted' || status === 'declined';

/** A stored line back as the input createInvoice takes (quantity and rate from their integer forms). */
export const lineInputOf = (l: InvoiceLine): LineInput => ({
  description: l.description,
  quantity: l.quantityMilli / 1000,
  unitCode: l.unitCode,
  unitPriceCents: l.unitPriceCents,
  vatRate: l.vatRateBp / 100,
  vatCategory: l.vatCategory,
  ...(l.exemptionReason ? { exemptionReason: l.exemptionReason } : {}),
  ...(l.discountPercentBp !== null
    ? { discountPercent: l.discountPercentBp / 100 }
    : l.discountCents
      ? { discountCents: l.discountCents }
      : {}),
});

const breakdownLine = (g: VatBreakdown, description: string, cents: number): LineInput => ({
  description,
  quantity: 1,
  unitPriceCents: cents,
  vatRate: g.rateBp / 100,
  vatCategory: g.category,
  ...(g.exemptionReason ? { exemptionReason: g.exemptionReason } : {}),
});

/** The deposit's taxable amount of one VAT breakdown: round(taxable × percent), half up, in cents. */
export const depositTaxable = (taxableCents: number, percentBp: number): number =>
  Math.round((taxableCents * percentBp) / 10_000);

/** Deposit invoice lines: one per VAT breakdown of the quote, `percentBp` of its taxable amount. */
export const depositLines = (quote: Pick<Quote, 'number' | 'vatBreakdown'>, percentBp: number): LineInput[] =>
  quote.vatBreakdown
    .map((g) =>
      breakdownLine(
        g,
        `Acompte de ${percentBp / 100} % sur le devis ${quote.number}`,
        depositTaxable(g.taxableCents, percentBp),
      ),
    )
    .filter((l) => l.unitPriceCents > 0);

/**
 * Balance invoice lines: per VAT breakdown, the quote's taxable amount less the deposit's (same rounding), so
 * deposit + balance = the quote per category and rate.
 */
export const balanceLines = (
  quote: Pick<Quote, 'number' | 'vatBreakdown'>,
  percentBp: number,
  depositNumber: string,
): LineInput[] =>
  quote.vatBreakdown
    .map((g) =>
      breakdownLine(
        g,
        `Solde du devis ${quote.number} (acompte facture ${depositNumber} déduit)`,
        g.taxableCents - depositTaxable(g.taxableCents, percentBp),
      ),
    )
    .filter((l) => l.unitPriceCents > 0);
