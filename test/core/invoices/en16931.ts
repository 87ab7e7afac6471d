import { create } from 'xmlbuilder2';
import { isCurrency, minorUnits } from '../../../domain/core/invoices/currencies';

/**
 * The EN 16931 business rules that can be checked offline on a CII document: mandatory fields (BR-01 ..
 * BR-16, BR-21 .. BR-27), totals (BR-CO-10 .. BR-CO-16, plus BR-CO-17 per breakdown and BR-CO-25), the
 * seller's identification (BR-CO-26), and the VAT breakdown rules of categories S, Z, E, AE, K (IC) and O
 * (BR-x-01 .. BR-x-10). Returns the broken
 * rules with what was found; an empty list means the document passes them all. Independent of the renderer:
 * it reads the XML as any receiver would.
 */
/** The part of the DOM (xmlbuilder2's) read here. */
interface El {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<El>;
  getAttribute(name: string): string | null;
}
const kids = (el: El | undefined, name: string): El[] =>
  el ? Array.from(el.childNodes).filter((n) => n.nodeType === 1 && n.nodeName === name) : [];
const path = (el: El | undefined, p: string): El[] =>
  p.split('/').reduce<El[]>((acc, name) => acc.flatMap((e) => kids(e, name)), el ? [el] : []);
const one = (el: El | undefined, p: string) => path(el, p)[0];
const text = (el: El | undefined, p: string) => one(el, p)?.textContent?.trim() ?? '';
const has = (el: El | undefined, p: string) => text(el, p) !== '';

export function en16931Violations(xml: string): string[] {
  const doc = create(xml).root().node as unknown as El;
  const v: string[] = [];
  const rule = (id: string, ok: boolean, detail = '') => {
    if (!ok) v.push(`${id}${detail ? `: ${detail}` : ''}`);
  };
  const tx = one(doc, 'rsm:SupplyChainTradeTransaction');
  const agreement = one(tx, 'ram:ApplicableHeaderTradeAgreement');
  const settlement = one(tx, 'ram:ApplicableHeaderTradeSettlement');
  const totals = one(settlement, 'ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  const seller = one(agreement, 'ram:SellerTradeParty');
  const buyer = one(agreement, 'ram:BuyerTradeParty');
  const lines = path(tx, 'ram:IncludedSupplyChainTradeLineItem');
  const breakdowns = path(settlement, 'ram:ApplicableTradeTax');
  const typeCode = text(doc, 'rsm:ExchangedDocument/ram:TypeCode');
  // Amounts as integers of the invoice currency's minor unit (2 decimals for EUR, none for JPY): the rounding rules
  // and their tolerance (one minor unit) are the currency's.
  const currency = text(settlement, 'ram:InvoiceCurrencyCode');
  const scale = 10 ** (isCurrency(currency) ? minorUnits(currency) : 2);
  const cents = (value: string) => Math.round(Number(value) * scale);

  rule(
    'BR-01',
    text(doc, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID') !== '',
    'specification identifier',
  );
  rule('BR-02', has(doc, 'rsm:ExchangedDocument/ram:ID'), 'invoice number');
  rule('BR-03', /^\d{8}$/.test(text(doc, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')), 'issue date');
  rule('BR-04', ['380', '381', '384', '389', '751'].includes(typeCode), `type code ${typeCode}`);
  rule('BR-05', /^[A-Z]{3}$/.test(text(settlement, 'ram:InvoiceCurrencyCode')), 'currency');
  rule('BR-06', has(seller, 'ram:Name'), 'seller name');
  rule('BR-07', has(buyer, 'ram:Name'), 'buyer name');
  rule('BR-08', !!one(seller, 'ram:PostalTradeAddress'), 'seller postal address');
  rule('BR-09', /^[A-Z]{2}$/.test(text(seller, 'ram:PostalTradeAddress/ram:CountryID')), 'seller country');
  rule('BR-10', !!one(buyer, 'ram:PostalTradeAddress'), 'buyer postal address');
  rule('BR-11', /^[A-Z]{2}$/.test(text(buyer, 'ram:PostalTradeAddress/ram:CountryID')), 'buyer country');
  for (const [id, field] of [
    ['BR-12', 'LineTotalAmount'],
    ['BR-13', 'TaxBasisTotalAmount'],
    ['BR-14', 'GrandTotalAmount'],
    ['BR-15', 'DuePayableAmount'],
  ])
    rule(id, has(totals, `ram:${field}`), field);
  rule('BR-16', lines.length > 0, 'at least one line');
  if (typeCode === '381')
    rule(
      'BR-55 (FR: a credit note references its invoice)',
      has(settlement, 'ram:InvoiceReferencedDocument/ram:IssuerAssignedID'),
      'preceding invoice reference',
    );

  const decimals = (value: string) => (value.split('.')[1] ?? '').length;
  let lineSum = 0;
  const lineNets = new Map<string, number>();
  for (const [i, item] of lines.entries()) {
    const at = `line ${i + 1}`;
    rule('BR-21', has(item, 'ram:AssociatedDocumentLineDocument/ram:LineID'), at);
    rule('BR-22', has(item, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'), at);
    rule('BR-23', !!one(item, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity')?.getAttribute('unitCode'), at);
    const net = text(
      item,
      'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount',
    );
    rule('BR-24', net !== '', at);
    rule('BR-DEC-23', decimals(net) <= 2, `${at}: ${net}`);
    rule('BR-25', has(item, 'ram:SpecifiedTradeProduct/ram:Name'), at);
    const price = text(item, 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount');
    rule('BR-26', price !== '', at);
    rule('BR-27', Number(price) >= 0, at);
    const tax = one(item, 'ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax');
    const category = text(tax, 'ram:CategoryCode');
    rule('BR-CO-04', category !== '', `${at}: VAT category`);
    const rate = text(tax, 'ram:RateApplicablePercent');
    const key = `${category}:${rate === '' ? '' : Number(rate)}`;
    lineNets.set(key, (lineNets.get(key) ?? 0) + cents(net));
    lineSum += cents(net);
    // Line net = quantity × net price − line allowances (two-decimal rounding of the product).
    const allowances = path(item, 'ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge').filter(
      (a) => text(a, 'ram:ChargeIndicator/udt:Indicator') === 'false',
    );
    const quantity = Number(text(item, 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity'));
    const expected =
      Math.round(quantity * cents(price)) - allowances.reduce((s, a) => s + cents(text(a, 'ram:ActualAmount')), 0);
    rule(
      'line net (BT-131 = BT-129 × BT-146 − BT-136)',
      Math.abs(expected - cents(net)) <= 1,
      `${at}: ${net} for ${quantity} × ${price}`,
    );
  }

  const amount = (field: string) => cents(text(totals, `ram:${field}`) || '0');
  // BT-110 is the TaxTotalAmount in the invoice currency; BT-111 the one in the VAT accounting currency (BT-6).
  const taxTotals = path(totals, 'ram:TaxTotalAmount');
  const taxTotalIn = (code: string) => taxTotals.find((t) => t.getAttribute('currencyID') === code);
  const taxCurrency = text(settlement, 'ram:TaxCurrencyCode');
  rule('BR-CO-14 (BT-110 in the invoice currency)', taxTotals.length === 0 || !!taxTotalIn(currency), currency);
  if (taxCurrency) {
    rule('BR-CL-05 (BT-6 an ISO 4217 code)', isCurrency(taxCurrency), taxCurrency);
    rule('BT-6 differs from BT-5', taxCurrency !== currency, taxCurrency);
    const bt111 = taxTotalIn(taxCurrency)?.textContent?.trim() ?? '';
    rule('BR-53 (BT-111 when BT-6 is given)', bt111 !== '', taxCurrency);
    rule('BR-DEC-15', (bt111.split('.')[1] ?? '').length <= 2, bt111);
  } else rule('BT-111 only with BT-6', taxTotals.length <= 1, `${taxTotals.length} TaxTotalAmount`);
  const vatTotal = cents(taxTotalIn(currency)?.textContent?.trim() || '0');
  let vatSum = 0;
  for (const [i, b] of breakdowns.entries()) {
    const at = `breakdown ${i + 1}`;
    const category = text(b, 'ram:CategoryCode');
    const rate = text(b, 'ram:RateApplicablePercent');
    const basis = cents(text(b, 'ram:BasisAmount'));
    const vat = cents(text(b, 'ram:CalculatedAmount'));
    const reason = has(b, 'ram:ExemptionReason') || has(b, 'ram:ExemptionReasonCode');
    vatSum += vat;
    rule('BR-45', has(b, 'ram:BasisAmount'), at);
    rule('BR-46', has(b, 'ram:CalculatedAmount'), at);
    rule('BR-47', category !== '', at);
    rule('BR-48', category === 'O' || rate !== '', at);
    // The official schematron accepts a deviation below one currency unit; a credit note's VAT is adjusted by
    // at most a cent (domain/core/invoices/createCreditNote.ts), so anything more is a defect here.
    rule(
      'BR-CO-17',
      Math.abs(vat - Math.round((basis * Number(rate || 0)) / 100)) <= 1,
      `${at}: ${vat} for ${basis} at ${rate} %`,
    );
    const prefix = category === 'K' ? 'BR-IC' : `BR-${category}`;
    rule(
      `${prefix}-08`,
      basis === (lineNets.get(`${category}:${rate === '' ? '' : Number(rate)}`) ?? 0),
      `${at}: basis ${basis}`,
    );
    if (category === 'S') {
      rule('BR-S-05', Number(rate) > 0, at);
      rule('BR-S-10', !reason, at);
    } else {
      rule(`${prefix}-06/09`, category === 'O' ? rate === '' && vat === 0 : Number(rate) === 0 && vat === 0, at);
      rule(`${prefix}-10`, category === 'Z' ? !reason : reason, `${at}: exemption reason`);
    }
  }
  // BR-CO-26: the seller has an identifier (BT-29), a legal registration identifier (BT-30) or a VAT identifier (BT-31).
  const sellerVatId = path(seller, 'ram:SpecifiedTaxRegistration/ram:ID').some(
    (e) => e.getAttribute('schemeID') === 'VA' && e.textContent?.trim(),
  );
  rule(
    'BR-CO-26',
    has(seller, 'ram:ID') ||
      has(seller, 'ram:GlobalID') ||
      has(seller, 'ram:SpecifiedLegalOrganization/ram:ID') ||
      sellerVatId,
    'seller identifier, legal registration or VAT identifier',
  );
  const categories = new Set(breakdowns.map((b) => text(b, 'ram:CategoryCode')));
  const sellerVat = has(seller, 'ram:SpecifiedTaxRegistration/ram:ID');
  const buyerVat = path(buyer, 'ram:SpecifiedTaxRegistration/ram:ID').some((e) => e.getAttribute('schemeID') === 'VA');
  for (const c of ['S', 'Z', 'E', 'AE', 'K'])
    if (categories.has(c)) rule(`${c === 'K' ? 'BR-IC' : `BR-${c}`}-02`, sellerVat, 'seller VAT identifier');
  for (const c of ['AE', 'K'])
    if (categories.has(c)) rule(`${c === 'K' ? 'BR-IC' : 'BR-AE'}-03/04`, buyerVat, 'buyer VAT identifier');
  if (categories.has('K')) {
    rule(
      'BR-IC-11',
      has(
        tx,
        'ram:ApplicableHeaderTradeDelivery/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString',
      ),
      'delivery date',
    );
    rule(
      'BR-IC-12',
      has(tx, 'ram:ApplicableHeaderTradeDelivery/ram:ShipToTradeParty/ram:PostalTradeAddress/ram:CountryID'),
      'deliver-to country',
    );
  }
  if (categories.has('O')) {
    rule('BR-O-02/03', !sellerVat && !buyerVat, 'no VAT identifiers with category O');
    rule('BR-O-11..14', categories.size === 1, 'no other category beside O');
  }
  rule('BR-CO-18', breakdowns.length > 0, 'at least one VAT breakdown');

  rule('BR-CO-10', amount('LineTotalAmount') === lineSum, `${amount('LineTotalAmount')} ≠ Σ lines ${lineSum}`);
  const allowances = amount('AllowanceTotalAmount');
  const charges = amount('ChargeTotalAmount');
  rule('BR-CO-13', amount('TaxBasisTotalAmount') === lineSum - allowances + charges, 'total without VAT');
  rule('BR-CO-14', vatTotal === vatSum, `${vatTotal} ≠ Σ breakdowns ${vatSum}`);
  rule('BR-CO-15', amount('GrandTotalAmount') === amount('TaxBasisTotalAmount') + vatTotal, 'grand total');
  rule(
    'BR-CO-16',
    amount('DuePayableAmount') === amount('GrandTotalAmount') - amount('TotalPrepaidAmount') + amount('RoundingAmount'),
    'amount due',
  );
  if (amount('DuePayableAmount') > 0)
    rule(
      'BR-CO-25',
      has(settlement, 'ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString') ||
        has(settlement, 'ram:SpecifiedTradePaymentTerms/ram:Description'),
      'due date or payment terms',
    );
  return v;
}
