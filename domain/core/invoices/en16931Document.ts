import type { FrenchCtcTerms, Invoice, InvoiceParty, PartyAddress, VatCategory } from '../../../entities/core/invoice';
import { exchangeOf, vatInAccounting } from './currencies';
import { sirenOf } from './frenchCtc';

/**
 * An issued document as EN 16931 business terms, whatever the syntax: the one mapping from the stored invoice
 * that the CII (facturx.ts) and UBL (ubl.ts) writers serialise, so both say the same thing. Every decision of
 * what goes in the document is taken here (which identifiers a party carries, the exemption of category O from
 * VAT numbers, the country delivered to, the payment means, the notes); the writers only place the terms in their
 * syntax's elements. Amounts in minor units of the currency (the writers give them its decimals), rates and percentages in basis points, quantities in thousandths, dates
 * YYYY-MM-DD; texts as entered (each writer escapes them).
 */
export const EN16931_SPECIFICATION = 'urn:cen.eu:en16931:2017';

/** A line discount's allowance reason (BT-140 UNTDID 5189 code 95, BT-139). */
export const LINE_DISCOUNT = { code: '95', reason: 'Remise' } as const;

export interface En16931Party {
  /** BT-27 / BT-44. */
  name: string;
  /** BT-30 / BT-47, scheme 0002 (SIREN). */
  legalId: string | null;
  /** BT-29, scheme 0009: the seller's SIRET (documents with French CTC terms). */
  siret: string | null;
  /** BT-31 / BT-48; null on documents with category O lines (BR-O-02, BR-O-03). */
  vatNumber: string | null;
  /** BT-32 (scheme FC): the SIREN of a seller exempt of VAT without a VAT number (BR-E-02). */
  taxRegistration: string | null;
  /** BT-34 / BT-49: the electronic address and its EAS scheme. */
  endpoint: { id: string; scheme: string } | null;
  /** BG-5 / BG-8. */
  address: PartyAddress | null;
}

export interface En16931Line {
  /** BT-126. */
  id: string;
  /** BT-153. */
  name: string;
  /** BT-129 (thousandths) and BT-130. */
  quantityMilli: number;
  unitCode: string;
  /** BT-146: net price of one unit. */
  netPriceCents: number;
  /** BG-27: the line discount (reason 95), with its percentage (BT-138) and base (BT-137) when given as one. */
  allowance: { amountCents: number; percentBp: number | null; basisCents: number | null } | null;
  /** BT-131. */
  netCents: number;
  /** BT-151 and BT-152 (null for category O, which has no rate). */
  vatCategory: VatCategory;
  vatRateBp: number | null;
}

export interface En16931VatBreakdown {
  /** BT-118, BT-119 (null for O), BT-116, BT-117, BT-120, BT-121. */
  category: VatCategory;
  rateBp: number | null;
  taxableCents: number;
  vatCents: number;
  exemptionReason: string | null;
  exemptionReasonCode: string | null;
}

export interface En16931Note {
  /** BT-21 (UNTDID 4451) and BT-22. */
  subject: string | null;
  text: string;
}

export interface En16931Document {
  /** BT-24 and BT-23 (the business process: the French billing framework, when set). */
  specification: string;
  businessProcess: string | null;
  /** BT-1, BT-3 (380 invoice, 381 credit note: amounts positive), BT-2, BT-9, BT-5. */
  number: string;
  typeCode: '380' | '381';
  credit: boolean;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  /**
   * BT-6 and BT-111: the VAT accounting currency and the VAT total in it, when the document is in another currency
   * (each breakdown's VAT converted at the recorded rate and rounded, then summed: currencies.ts).
   */
  taxCurrency: { code: string; vatTotalCents: number } | null;
  /** BG-1. */
  notes: En16931Note[];
  /** BT-10, BT-13, BT-20. */
  buyerReference: string | null;
  orderReference: string | null;
  paymentTerms: string | null;
  /** BG-3: the invoice a credit note corrects (BT-25, BT-26). */
  preceding: { number: string; issueDate: string | null } | null;
  seller: En16931Party;
  buyer: En16931Party;
  /** BT-72 (the issue date when no delivery date was given) and BT-80 (intra-community supplies, BR-IC-12). */
  deliveryDate: string;
  shipToCountry: string | null;
  /** BT-83. */
  paymentReference: string;
  /** BG-17: credit transfer (BT-81 code 58) to the seller's IBAN (BT-84) and BIC (BT-86); invoices only. */
  creditTransfer: { iban: string; bic: string | null } | null;
  vatBreakdown: En16931VatBreakdown[];
  /** BG-22: BT-106, BT-109, BT-110, BT-112, BT-115. */
  totals: {
    lineTotalCents: number;
    taxExclusiveCents: number;
    vatTotalCents: number;
    grandTotalCents: number;
    duePayableCents: number;
  };
  lines: En16931Line[];
}

function party(p: InvoiceParty, role: 'seller' | 'buyer', withVat: boolean, ctc: FrenchCtcTerms | null): En16931Party {
  const vatNumber = withVat ? p.vatNumber : null;
  // Documents with French CTC terms carry the SIREN-based addresses fixed at issue (and the buyer's SIREN even
  // when it was only read from its VAT number); the others, as they always did, the e-mail address.
  const endpoint = ctc
    ? role === 'seller'
      ? ctc.sellerEndpoint
      : ctc.buyerEndpoint
    : p.email
      ? { id: p.email, scheme: 'EM' }
      : null;
  return {
    name: p.name,
    legalId: ctc && role === 'buyer' ? (sirenOf(p) ?? p.legalId) : p.legalId,
    siret: ctc && role === 'seller' ? p.siret : null,
    vatNumber,
    taxRegistration: role === 'seller' && withVat && !p.vatNumber && p.legalId ? p.legalId : null,
    endpoint,
    address: p.address,
  };
}

/** The EN 16931 terms of an issued invoice or credit note (`credited`: the invoice a credit note corrects). */
export function toEn16931(invoice: Invoice, credited?: Pick<Invoice, 'number' | 'issueDate'>): En16931Document {
  if (!invoice.number || !invoice.issueDate || !invoice.seller || !invoice.buyer)
    throw new Error(`invoice ${invoice.id} is not issued`);
  const withVat = !invoice.lines.some((l) => l.vatCategory === 'O');
  const notes: En16931Note[] = [];
  if (invoice.note) notes.push({ subject: null, text: invoice.note });
  if (invoice.creditReason) notes.push({ subject: null, text: invoice.creditReason });
  const ctc = invoice.ctc ?? null;
  if (ctc) notes.push(...ctc.notes);
  const credit = invoice.kind === 'credit_note';
  const terms = exchangeOf(invoice);
  return {
    specification: EN16931_SPECIFICATION,
    businessProcess: ctc?.businessProcess ?? null,
    number: invoice.number,
    typeCode: credit ? '381' : '380',
    credit,
    issueDate: invoice.issueDate,
    dueDate: invoice.dueDate ?? null,
    currency: invoice.currency,
    taxCurrency: terms
      ? {
          code: terms.accountingCurrency,
          vatTotalCents: vatInAccounting(
            invoice.vatBreakdown.map((g) => g.vatCents),
            terms,
          ).total,
        }
      : null,
    notes,
    buyerReference: invoice.buyerReference ?? null,
    orderReference: invoice.orderReference ?? null,
    paymentTerms: invoice.paymentTerms ?? null,
    preceding: credited?.number ? { number: credited.number, issueDate: credited.issueDate ?? null } : null,
    seller: party(invoice.seller, 'seller', withVat, ctc),
    buyer: party(invoice.buyer, 'buyer', withVat, ctc),
    deliveryDate: invoice.deliveryDate ?? invoice.issueDate,
    shipToCountry:
      invoice.lines.some((l) => l.vatCategory === 'K') && invoice.buyer.address ? invoice.buyer.address.country : null,
    paymentReference: invoice.number,
    creditTransfer:
      invoice.seller.iban && !credit ? { iban: invoice.seller.iban, bic: invoice.seller.bic ?? null } : null,
    vatBreakdown: invoice.vatBreakdown.map((g) => ({
      category: g.category,
      rateBp: g.category === 'O' ? null : g.rateBp,
      taxableCents: g.taxableCents,
      vatCents: g.vatCents,
      exemptionReason: g.exemptionReason ?? null,
      exemptionReasonCode: g.exemptionReasonCode ?? null,
    })),
    totals: {
      lineTotalCents: invoice.lineTotalCents,
      taxExclusiveCents: invoice.taxExclusiveCents,
      vatTotalCents: invoice.vatTotalCents,
      grandTotalCents: invoice.grandTotalCents,
      duePayableCents: invoice.grandTotalCents,
    },
    lines: invoice.lines.map((l) => ({
      id: String(l.position),
      name: l.description,
      quantityMilli: l.quantityMilli,
      unitCode: l.unitCode,
      netPriceCents: l.unitPriceCents,
      allowance:
        l.discountCents > 0
          ? {
              amountCents: l.discountCents,
              percentBp: l.discountPercentBp,
              basisCents: l.discountPercentBp !== null ? l.grossCents : null,
            }
          : null,
      netCents: l.netCents,
      vatCategory: l.vatCategory,
      vatRateBp: l.vatCategory === 'O' ? null : l.vatRateBp,
    })),
  };
}
