import type { ReceivedDocument } from './document';

/** A business rule a received document breaks: its identifier and what was found. */
export interface RuleViolation {
  rule: string;
  detail: string;
}

/** UNTDID 1001 document types EN 16931 allows (BR-04): invoices and credit notes. */
export const INVOICE_TYPE_CODES = ['380', '381', '384', '389', '751', '386', '393', '261', '262', '396', '532'];
const CREDIT_NOTE_TYPE_CODES = ['381', '261', '262', '396', '532'];

const rateKey = (category: string | null, rate: string | null) =>
  `${category ?? ''}:${rate === null ? '' : Number(rate)}`;

/**
 * The EN 16931 business rules checked on received documents, the ones the issuing side is held to (the same list
 * as test/core/invoices/en16931.ts, read here from the semantic model, so CII and UBL are checked alike):
 * mandatory content (BR-01 .. BR-16, BR-21 .. BR-27, BR-45 .. BR-48), totals (BR-CO-10, BR-CO-13 .. BR-CO-18,
 * BR-CO-25), the seller's identification (BR-CO-26), decimals (BR-DEC-23) and the VAT category rules of S, Z, E,
 * AE, K (IC) and O. An empty list: the document passes them all.
 */
export function en16931Violations(doc: ReceivedDocument): RuleViolation[] {
  const v: RuleViolation[] = [];
  const rule = (id: string, ok: boolean, detail: string) => {
    if (!ok) v.push({ rule: id, detail });
  };
  const { seller, buyer, totals } = doc;

  rule('BR-01', !!doc.specification, 'specification identifier (BT-24) missing');
  rule('BR-02', !!doc.number, 'invoice number (BT-1) missing');
  rule('BR-03', !!doc.issueDate, `issue date (BT-2) ${doc.issueDateText ?? 'missing'}`);
  rule('BR-04', INVOICE_TYPE_CODES.includes(doc.typeCode ?? ''), `type code (BT-3) ${doc.typeCode ?? 'missing'}`);
  rule('BR-05', /^[A-Z]{3}$/.test(doc.currency ?? ''), `currency (BT-5) ${doc.currency ?? 'missing'}`);
  rule('BR-06', !!seller.name, 'seller name (BT-27) missing');
  rule('BR-07', !!buyer.name, 'buyer name (BT-44) missing');
  rule('BR-08', !!seller.address, 'seller postal address (BG-5) missing');
  rule('BR-09', /^[A-Z]{2}$/.test(seller.address?.country ?? ''), 'seller country (BT-40)');
  rule('BR-10', !!buyer.address, 'buyer postal address (BG-8) missing');
  rule('BR-11', /^[A-Z]{2}$/.test(buyer.address?.country ?? ''), 'buyer country (BT-55)');
  rule('BR-12', totals.lineTotalCents !== null, 'sum of line net amounts (BT-106) missing');
  rule('BR-13', totals.taxBasisTotalCents !== null, 'total without VAT (BT-109) missing');
  rule('BR-14', totals.grandTotalCents !== null, 'total with VAT (BT-112) missing');
  rule('BR-15', totals.duePayableCents !== null, 'amount due (BT-115) missing');
  rule('BR-16', doc.lines.length > 0, 'no invoice line');
  if (CREDIT_NOTE_TYPE_CODES.includes(doc.typeCode ?? '') && doc.seller.address?.country === 'FR')
    rule('BR-FR-CO-04', !!doc.precedingInvoice, 'a French credit note references the invoice it corrects (BT-25)');

  let lineSum = 0;
  const lineNets = new Map<string, number>();
  for (const [i, l] of doc.lines.entries()) {
    const at = `line ${i + 1}`;
    rule('BR-21', !!l.id, `${at}: identifier (BT-126) missing`);
    rule('BR-22', l.quantity !== null, `${at}: quantity (BT-129) missing`);
    rule('BR-23', !!l.unitCode, `${at}: unit of measure (BT-130) missing`);
    rule('BR-24', l.netCents !== null, `${at}: net amount (BT-131) missing`);
    rule('BR-DEC-23', l.netDecimals <= 2, `${at}: net amount with ${l.netDecimals} decimals`);
    rule('BR-25', !!l.name, `${at}: item name (BT-153) missing`);
    rule('BR-26', l.netPriceCents !== null, `${at}: net price (BT-146) missing`);
    rule('BR-27', (l.netPriceCents ?? 0) >= 0, `${at}: negative net price`);
    rule('BR-CO-04', !!l.vatCategory, `${at}: VAT category (BT-151) missing`);
    const net = l.netCents ?? 0;
    const key = rateKey(l.vatCategory, l.vatRate);
    lineNets.set(key, (lineNets.get(key) ?? 0) + net);
    lineSum += net;
    if (l.quantity !== null && l.netPriceCents !== null && l.netCents !== null) {
      const expected = Math.round(Number(l.quantity) * l.netPriceCents) - l.allowanceCents + l.chargeCents;
      rule(
        'BR-LINE-NET',
        Math.abs(expected - net) <= 1,
        `${at}: net ${net / 100} is not quantity × price − allowances + charges (${expected / 100})`,
      );
    }
  }

  let vatSum = 0;
  for (const [i, b] of doc.vatBreakdown.entries()) {
    const at = `VAT breakdown ${i + 1}`;
    const basis = b.basisCents ?? 0;
    const vat = b.vatCents ?? 0;
    const reason = !!(b.exemptionReason || b.exemptionReasonCode);
    vatSum += vat;
    rule('BR-45', b.basisCents !== null, `${at}: taxable amount (BT-116) missing`);
    rule('BR-46', b.vatCents !== null, `${at}: VAT amount (BT-117) missing`);
    rule('BR-47', !!b.category, `${at}: category (BT-118) missing`);
    rule('BR-48', b.category === 'O' || b.rate !== null, `${at}: rate (BT-119) missing`);
    rule(
      'BR-CO-17',
      Math.abs(vat - Math.round((basis * Number(b.rate ?? 0)) / 100)) <= 1,
      `${at}: VAT ${vat / 100} is not ${basis / 100} × ${b.rate ?? 0} %`,
    );
    const prefix = b.category === 'K' ? 'BR-IC' : `BR-${b.category ?? '?'}`;
    rule(
      `${prefix}-08`,
      basis === (lineNets.get(rateKey(b.category, b.rate)) ?? 0),
      `${at}: taxable ${basis / 100} is not the sum of its lines`,
    );
    if (b.category === 'S') {
      rule('BR-S-05', Number(b.rate) > 0, `${at}: standard rate must be above zero`);
      rule('BR-S-10', !reason, `${at}: no exemption reason with category S`);
    } else if (b.category && ['Z', 'E', 'AE', 'K', 'O', 'G', 'L', 'M'].includes(b.category)) {
      rule(
        `${prefix}-06/09`,
        b.category === 'O' ? b.rate === null && vat === 0 : Number(b.rate) === 0 && vat === 0,
        `${at}: category ${b.category} has no VAT`,
      );
      if (['Z', 'E', 'AE', 'K', 'O'].includes(b.category))
        rule(
          `${prefix}-10`,
          b.category === 'Z' ? !reason : reason,
          `${at}: exemption reason ${b.category === 'Z' ? 'not allowed' : 'missing'}`,
        );
    }
  }
  rule(
    'BR-CO-26',
    !!(seller.id || seller.legalId || seller.vatNumber),
    'seller identifier (BT-29), legal registration (BT-30) or VAT identifier (BT-31) missing',
  );
  const categories = new Set(doc.vatBreakdown.map((b) => b.category));
  const sellerVat = !!(seller.vatNumber || seller.taxId);
  for (const c of ['S', 'Z', 'E', 'AE', 'K'])
    if (categories.has(c)) rule(`${c === 'K' ? 'BR-IC' : `BR-${c}`}-02`, sellerVat, 'seller VAT identifier missing');
  for (const c of ['AE', 'K'])
    if (categories.has(c))
      rule(`${c === 'K' ? 'BR-IC' : 'BR-AE'}-03/04`, !!buyer.vatNumber, 'buyer VAT identifier missing');
  if (categories.has('K')) {
    rule('BR-IC-11', !!doc.deliveryDate, 'delivery date (BT-72) missing');
    rule('BR-IC-12', !!doc.shipToCountry, 'deliver-to country (BT-80) missing');
  }
  if (categories.has('O')) {
    rule('BR-O-02/03', !seller.vatNumber && !buyer.vatNumber, 'no VAT identifiers with category O');
    rule('BR-O-11..14', categories.size === 1, 'no other category beside O');
  }
  rule('BR-CO-18', doc.vatBreakdown.length > 0, 'no VAT breakdown');

  const t = (n: number | null) => n ?? 0;
  rule(
    'BR-CO-10',
    t(totals.lineTotalCents) === lineSum,
    `sum of lines ${t(totals.lineTotalCents) / 100} ≠ ${lineSum / 100}`,
  );
  rule(
    'BR-CO-13',
    t(totals.taxBasisTotalCents) === lineSum - t(totals.allowanceTotalCents) + t(totals.chargeTotalCents),
    `total without VAT ${t(totals.taxBasisTotalCents) / 100} ≠ lines − allowances + charges`,
  );
  rule(
    'BR-CO-14',
    t(totals.taxTotalCents) === vatSum,
    `VAT total ${t(totals.taxTotalCents) / 100} ≠ Σ breakdowns ${vatSum / 100}`,
  );
  rule(
    'BR-CO-15',
    t(totals.grandTotalCents) === t(totals.taxBasisTotalCents) + t(totals.taxTotalCents),
    `total with VAT ${t(totals.grandTotalCents) / 100} ≠ total without VAT + VAT`,
  );
  rule(
    'BR-CO-16',
    t(totals.duePayableCents) === t(totals.grandTotalCents) - t(totals.prepaidCents) + t(totals.roundingCents),
    `amount due ${t(totals.duePayableCents) / 100} ≠ total − prepaid + rounding`,
  );
  if (t(totals.duePayableCents) > 0)
    rule(
      'BR-CO-25',
      !!(doc.dueDate || doc.paymentTerms),
      'an amount due needs a due date (BT-9) or payment terms (BT-20)',
    );
  return v;
}
