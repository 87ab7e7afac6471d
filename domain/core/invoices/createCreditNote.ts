import { emitEvent } from '../../webhooks/emitEvent';
import { invoiceData } from '../../webhooks/payloads';
import { Invoice, type InvoiceLine } from '../../../entities/core/invoice';
import { conflict } from '../../../lib/errors';
import { audit } from '../../platform/audit';
import type { TenantContext } from '../../context';
import { notify } from '../../notifications/notify';
import { computeInvoice, type LineInput } from './amounts';
import { creditVat } from './creditVat';
import { invoiceToday, notIssued } from './lookup';
import { takeNumber } from './numbering';
import { readInvoiceSettings } from './settings';
import { checkFrenchRules } from './checkFrenchRules';
import { frenchCtcTerms } from './frenchCtc';
import { settlementStatus } from './settlement';
import { creditNotesOfInvoice, findInvoice } from './store';

export interface CreditNoteProps {
  /** Why the invoice is corrected (printed on the credit note). */
  reason: string;
  /** The lines credited; none credits the whole invoice (only when nothing was credited yet). */
  lines?: LineInput[];
}

const asInput = (l: InvoiceLine): LineInput => ({
  description: l.description,
  quantity: l.quantityMilli / 1000,
  unitCode: l.unitCode,
  unitPriceCents: l.unitPriceCents,
  vatRate: l.vatRateBp / 100,
  vatCategory: l.vatCategory,
  exemptionReason: l.exemptionReason ?? undefined,
  ...(l.discountPercentBp !== null
    ? { discountPercent: l.discountPercentBp / 100 }
    : { discountCents: l.discountCents }),
});

/**
 * Issues a credit note (type 381) correcting an issued invoice, fully (no lines: a copy of every line) or
 * partly (the lines given). It is its own document: numbered in the credit-note sequence in the same
 * transaction, dated today, with the invoice's seller and buyer, referencing the invoice (BT-25, BT-26).
 * Each VAT breakdown of all the invoice's credit notes together stays within the invoice's (409
 * credit_exceeds_invoice), and their VAT adds up to the invoice's exactly once everything is credited
 * (creditVat). The invoice's creditedCents and status follow (settlement.ts).
 */
export async function createCreditNote(
  ctx: TenantContext,
  invoiceId: string,
  props: CreditNoteProps,
): Promise<Invoice> {
  const { creditNote, invoice } = await ctx.em.transactional(async (em) => {
    // The invoice's row lock orders credit notes and payments of one invoice.
    const invoice = await findInvoice(em, invoiceId, { lock: true });
    if (invoice.kind !== 'invoice') throw conflict('not_an_invoice', 'A credit note cannot be credited');
    if (invoice.status === 'draft') throw notIssued();
    if (!props.lines && invoice.creditedCents > 0)
      throw conflict('credit_lines_required', 'The invoice is already partly credited: give the lines to credit');
    const earlier = await creditNotesOfInvoice(em, invoice.id);
    const computed = creditVat(
      computeInvoice(props.lines ?? invoice.lines.map(asInput)),
      invoice.vatBreakdown,
      earlier.flatMap((cn) => cn.vatBreakdown),
    );
    const issueDate = invoiceToday();
    const { year, sequenceNo, number } = await takeNumber(
      em,
      ctx.tenantId,
      'credit_note',
      issueDate,
      await readInvoiceSettings(em, ctx.tenantId),
    );
    const creditNote = em.create(Invoice, {
      tenantId: ctx.tenantId,
      kind: 'credit_note',
      status: 'issued',
      customerId: invoice.customerId,
      number,
      sequenceYear: year,
      sequenceNo,
      issueDate,
      issuedAt: new Date(),
      dueDate: issueDate,
      paymentTerms: `Avoir sur la facture ${invoice.number} du ${invoice.issueDate}, à déduire de son montant dû ou remboursé.`,
      deliveryDate: invoice.deliveryDate ?? invoice.issueDate,
      buyerReference: invoice.buyerReference,
      orderReference: invoice.orderReference,
      note: null,
      // The currency and exchange rate of the invoice it corrects: the books reverse what they booked.
      currency: invoice.currency,
      accountingCurrency: invoice.accountingCurrency ?? null,
      exchangeRate: invoice.exchangeRate ?? null,
      lines: computed.lines,
      vatBreakdown: computed.vatBreakdown,
      lineTotalCents: computed.lineTotalCents,
      taxExclusiveCents: computed.taxExclusiveCents,
      vatTotalCents: computed.vatTotalCents,
      grandTotalCents: computed.grandTotalCents,
      buyerOverrides: invoice.buyerOverrides,
      seller: invoice.seller,
      buyer: invoice.buyer,
      creditedInvoiceId: invoice.id,
      creditReason: props.reason.trim(),
      createdBy: ctx.userId,
      operationCategory: invoice.operationCategory,
      ctc:
        invoice.seller && invoice.buyer
          ? frenchCtcTerms(invoice.operationCategory, invoice.seller, invoice.buyer)
          : null,
    });
    checkFrenchRules(creditNote, invoice);
    invoice.creditedCents += computed.grandTotalCents;
    invoice.status = settlementStatus(invoice);
    audit(em, {
      action: 'core.invoice.credited',
      actorId: ctx.userId,
      tenantId: ctx.tenantId,
      targetType: 'invoice',
      targetId: invoice.id,
      data: { creditNoteId: creditNote.id, number, amountCents: computed.grandTotalCents },
    });
    emitEvent(em, ctx.tenantId, 'invoice.credited', invoiceData(invoice));
    return { creditNote, invoice };
  });
  await notify(ctx.services, 'core', [
    {
      event: 'invoice.credited',
      tenantId: ctx.tenantId,
      subject: { invoiceId: invoice.id, customerId: invoice.customerId },
      data: {
        creditNoteId: creditNote.id,
        creditNoteNumber: creditNote.number,
        amountCents: creditNote.grandTotalCents,
        status: invoice.status,
      },
    },
  ]);
  return creditNote;
}
