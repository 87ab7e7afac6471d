import type {
  EReportScope,
  PaymentLine,
  TransactionCategoryCode,
  TransactionLine,
} from '../../../../entities/core/ereport';
import type {
  InvoiceKind,
  InvoiceParty,
  OperationCategory,
  VatBreakdown,
  VatCategory,
} from '../../../../entities/core/invoice';
import { inFrenchScope } from '../frenchCtc';

/**
 * The e-reporting scope of a document by its parties as issued: null when it is not e-reported (a domestic B2B
 * document is e-invoiced: its data reaches the administration with the invoice; a seller not established in France
 * has no French e-reporting); `international` for a buyer abroad identified as a business (a VAT number or a
 * legal identifier); `b2c` for the others: a consumer, or any buyer in France without a SIREN (not a taxable
 * person the reform can address), or a buyer abroad with no business identifier.
 */
export function ereportScope(seller: InvoiceParty, buyer: InvoiceParty): EReportScope | null {
  if (seller.address?.country !== 'FR') return null;
  if (inFrenchScope(seller, buyer)) return null;
  const abroad = !!buyer.address && buyer.address.country !== 'FR';
  return abroad && (buyer.vatNumber || buyer.legalId) ? 'international' : 'b2c';
}

/** VAT categories under which the seller charges French VAT (standard and zero rates). */
const TAXED: readonly VatCategory[] = ['S', 'Z'];

/**
 * The transaction category (TT-81) of a VAT breakdown: TLB1 goods and TPS1 services subject to French VAT; TNT1
 * what is not (exempt, reverse charge, intra-community supply, outside scope). A mixed document is reported under
 * TPS1: the suite does not record per line whether it is a good or a service, and its payments are reported as a
 * service's (VAT on receipts), so its transactions and payments stay under the same category.
 */
export function categoryCodeOf(category: OperationCategory, vat: VatCategory): TransactionCategoryCode {
  if (!TAXED.includes(vat)) return 'TNT1';
  return category === 'goods' ? 'TLB1' : 'TPS1';
}

/** An issued document as transaction data reads it. */
export interface ReportedDocument {
  kind: InvoiceKind;
  issueDate: string;
  operationCategory: OperationCategory;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  vatBreakdown: VatBreakdown[];
}

const byKey = <T>(lines: Map<string, T>) => [...lines.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, l]) => l);

/**
 * Transaction data: per day, scope, category and VAT rate, the taxable base, the VAT and the count of invoices
 * and credit notes; a credit note subtracts its amounts. Documents outside e-reporting (ereportScope null) are
 * left out. Lines come ordered by day, scope, category code and rate; amounts stay the documents' own cents.
 */
export function aggregateTransactions(docs: readonly ReportedDocument[]): TransactionLine[] {
  const lines = new Map<string, TransactionLine>();
  for (const doc of docs) {
    const scope = ereportScope(doc.seller, doc.buyer);
    if (!scope) continue;
    const sign = doc.kind === 'credit_note' ? -1 : 1;
    const counted = new Set<string>();
    for (const vat of doc.vatBreakdown) {
      const categoryCode = categoryCodeOf(doc.operationCategory, vat.category);
      const key = `${doc.issueDate}|${scope}|${categoryCode}|${String(vat.rateBp).padStart(5, '0')}|${doc.operationCategory}`;
      const line = lines.get(key) ?? {
        date: doc.issueDate,
        scope,
        category: doc.operationCategory,
        categoryCode,
        vatRateBp: vat.rateBp,
        taxableCents: 0,
        vatCents: 0,
        invoiceCount: 0,
        creditNoteCount: 0,
      };
      line.taxableCents += sign * vat.taxableCents;
      line.vatCents += sign * vat.vatCents;
      // A document with two breakdowns of one line's key (two exemption reasons) counts once there.
      if (!counted.has(key)) {
        if (sign > 0) line.invoiceCount += 1;
        else line.creditNoteCount += 1;
        counted.add(key);
      }
      lines.set(key, line);
    }
  }
  return byKey(lines);
}

/**
 * Splits `total` cents in proportion to `weights` (largest remainder: the parts are whole cents and add up to
 * `total` exactly; ties go to the first). Weights of zero get zero; all zero gives everything to none.
 */
export function splitCents(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum <= 0) return weights.map(() => 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, x) => a + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] += 1;
    left -= 1;
  }
  return parts;
}

/** A payment as payment data reads it, with the VAT breakdown of the invoice it pays. */
export interface ReportedPayment {
  paidOn: string;
  amountCents: number;
  operationCategory: OperationCategory;
  seller: InvoiceParty;
  vatBreakdown: VatBreakdown[];
}

/**
 * Payment data (VAT on receipts of services): per day and VAT rate, the amount collected, the taxable base and the
 * VAT in it, and the count of payments. A payment of a services or mixed invoice from a seller in France, whoever
 * the buyer, is split over the invoice's VAT breakdowns in proportion to their amounts VAT included (splitCents),
 * and each part's VAT is its share of that breakdown's VAT (rounded half up to the cent); parts without French VAT
 * (exempt, reverse charge ...) are left out. Goods invoices owe VAT on delivery, not on receipt: not reported.
 */
export function aggregatePayments(payments: readonly ReportedPayment[]): PaymentLine[] {
  const lines = new Map<string, PaymentLine>();
  for (const pay of payments) {
    if (pay.operationCategory === 'goods' || pay.seller.address?.country !== 'FR') continue;
    const gross = pay.vatBreakdown.map((v) => v.taxableCents + v.vatCents);
    const parts = splitCents(pay.amountCents, gross);
    const counted = new Set<string>();
    pay.vatBreakdown.forEach((vat, i) => {
      if (!TAXED.includes(vat.category) || parts[i] === 0) return;
      const key = `${pay.paidOn}|${String(vat.rateBp).padStart(5, '0')}`;
      const line = lines.get(key) ?? {
        date: pay.paidOn,
        vatRateBp: vat.rateBp,
        amountCents: 0,
        taxableCents: 0,
        vatCents: 0,
        paymentCount: 0,
      };
      const vatPart = gross[i] ? Math.round((parts[i] * vat.vatCents) / gross[i]) : 0;
      line.amountCents += parts[i];
      line.vatCents += vatPart;
      line.taxableCents += parts[i] - vatPart;
      if (!counted.has(key)) line.paymentCount += 1;
      counted.add(key);
      lines.set(key, line);
    });
  }
  return byKey(lines);
}
