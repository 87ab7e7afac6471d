import {
  centsOf,
  decimalsOf,
  isoDateOf,
  type ReceivedDocument,
  type ReceivedLine,
  type ReceivedNote,
  type ReceivedParty,
} from './document';
import { attr, kids, localName, one, path, text, type El } from './xml';

export const UBL_NAMESPACES = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

function party(el: El | undefined): ReceivedParty {
  const p = one(el, 'Party');
  const schemes = kids(p, 'PartyTaxScheme');
  const vat = schemes.find((s) => text(s, 'TaxScheme/ID') === 'VAT');
  const other = schemes.find((s) => text(s, 'TaxScheme/ID') !== 'VAT');
  const legal = one(p, 'PartyLegalEntity/CompanyID');
  const endpoint = one(p, 'EndpointID');
  const address = one(p, 'PostalAddress');
  return {
    name: text(p, 'PartyLegalEntity/RegistrationName') ?? text(p, 'PartyName/Name'),
    legalId: legal?.textContent?.trim() || null,
    legalIdScheme: attr(legal, 'schemeID'),
    vatNumber: text(vat, 'CompanyID'),
    taxId: text(other, 'CompanyID'),
    id: text(p, 'PartyIdentification/ID'),
    endpoint: endpoint?.textContent?.trim() || null,
    endpointScheme: attr(endpoint, 'schemeID'),
    address: address
      ? {
          line1: text(address, 'StreetName'),
          line2: text(address, 'AdditionalStreetName'),
          postalCode: text(address, 'PostalZone'),
          city: text(address, 'CityName'),
          country: text(address, 'Country/IdentificationCode'),
        }
      : null,
  };
}

const sumOf = (els: El[]) => els.reduce((s, a) => s + (centsOf(text(a, 'Amount')) ?? 0), 0);

function line(item: El): ReceivedLine {
  const quantity = one(item, 'InvoicedQuantity') ?? one(item, 'CreditedQuantity');
  const allowances = kids(item, 'AllowanceCharge');
  const isCharge = (a: El) => text(a, 'ChargeIndicator') === 'true';
  const net = text(item, 'LineExtensionAmount');
  const tax = one(item, 'Item/ClassifiedTaxCategory');
  // BT-149 base quantity: the price is per that many units.
  const base = Number(text(item, 'Price/BaseQuantity') ?? '1') || 1;
  const price = centsOf(text(item, 'Price/PriceAmount'));
  return {
    id: text(item, 'ID'),
    name: text(item, 'Item/Name'),
    quantity: quantity?.textContent?.trim() || null,
    unitCode: attr(quantity, 'unitCode'),
    netPriceCents: price === null ? null : price / base,
    allowanceCents: sumOf(allowances.filter((a) => !isCharge(a))),
    chargeCents: sumOf(allowances.filter(isCharge)),
    netCents: centsOf(net),
    netDecimals: decimalsOf(net),
    vatCategory: text(tax, 'ID'),
    vatRate: text(tax, 'Percent'),
  };
}

/** Peppol writes a note's subject code (BT-21) as `#CODE#text`. */
export function ublNote(raw: string): ReceivedNote {
  const m = /^#([A-Z]{3})#([\s\S]*)$/.exec(raw.trim());
  return m ? { subject: m[1], text: m[2].trim() } : { subject: null, text: raw.trim() };
}

/** A UBL 2.1 Invoice or CreditNote (Peppol BIS Billing 3.0, EN 16931 UBL binding) read into the semantic model. */
export function parseUbl(root: El): ReceivedDocument {
  const credit = localName(root) === 'CreditNote';
  const monetary = one(root, 'LegalMonetaryTotal');
  const amount = (name: string) => centsOf(text(monetary, name));
  const currency = text(root, 'DocumentCurrencyCode');
  const taxTotals = kids(root, 'TaxTotal');
  const mainTaxTotal = taxTotals.find((t) => attr(one(t, 'TaxAmount'), 'currencyID') === currency) ?? taxTotals[0];
  const issue = text(root, 'IssueDate');
  const terms = kids(root, 'PaymentTerms')
    .map((t) => text(t, 'Note'))
    .filter((t): t is string => !!t);
  const payment = kids(root, 'PaymentMeans');
  return {
    syntax: 'ubl',
    specification: text(root, 'CustomizationID'),
    businessProcess: text(root, 'ProfileID'),
    number: text(root, 'ID'),
    typeCode: text(root, credit ? 'CreditNoteTypeCode' : 'InvoiceTypeCode'),
    issueDateText: issue,
    issueDate: /^\d{4}-\d{2}-\d{2}$/.test(issue ?? '') ? isoDateOf(issue) : null,
    dueDate: isoDateOf(text(root, 'DueDate') ?? text(payment[0], 'PaymentDueDate')),
    currency,
    buyerReference: text(root, 'BuyerReference'),
    orderReference: text(root, 'OrderReference/ID'),
    paymentTerms: terms.length ? terms.join('\n') : null,
    notes: kids(root, 'Note').flatMap((n) => (n.textContent?.trim() ? [ublNote(n.textContent)] : [])),
    precedingInvoice: text(root, 'BillingReference/InvoiceDocumentReference/ID'),
    deliveryDate: isoDateOf(text(root, 'Delivery/ActualDeliveryDate')),
    shipToCountry: text(root, 'Delivery/DeliveryLocation/Address/Country/IdentificationCode'),
    seller: party(one(root, 'AccountingSupplierParty')),
    buyer: party(one(root, 'AccountingCustomerParty')),
    lines: kids(root, credit ? 'CreditNoteLine' : 'InvoiceLine').map(line),
    vatBreakdown: path(mainTaxTotal, 'TaxSubtotal').map((s) => ({
      category: text(s, 'TaxCategory/ID'),
      rate: text(s, 'TaxCategory/Percent'),
      basisCents: centsOf(text(s, 'TaxableAmount')),
      vatCents: centsOf(text(s, 'TaxAmount')),
      exemptionReason: text(s, 'TaxCategory/TaxExemptionReason'),
      exemptionReasonCode: text(s, 'TaxCategory/TaxExemptionReasonCode'),
    })),
    totals: {
      lineTotalCents: amount('LineExtensionAmount'),
      allowanceTotalCents: amount('AllowanceTotalAmount'),
      chargeTotalCents: amount('ChargeTotalAmount'),
      taxBasisTotalCents: amount('TaxExclusiveAmount'),
      taxTotalCents: centsOf(text(mainTaxTotal, 'TaxAmount')),
      grandTotalCents: amount('TaxInclusiveAmount'),
      prepaidCents: amount('PrepaidAmount'),
      roundingCents: amount('PayableRoundingAmount'),
      duePayableCents: amount('PayableAmount'),
    },
    paymentMeans: payment.map((m) => ({
      typeCode: text(m, 'PaymentMeansCode'),
      iban: text(m, 'PayeeFinancialAccount/ID'),
      bic: text(m, 'PayeeFinancialAccount/FinancialInstitutionBranch/ID'),
    })),
  };
}

/**
 * The UBL syntax binding checks that a schema would make and that the semantic model cannot see: the root is a
 * UBL 2.1 Invoice or CreditNote in its namespace, its components are in the cbc / cac namespaces (a document
 * in a look-alike namespace is not UBL), the amounts carry their currency (UBL's AmountType requires
 * currencyID), a date is YYYY-MM-DD and the elements that occur once occur at most once.
 */
export function ublSyntaxViolations(root: El): string[] {
  const v: string[] = [];
  const name = localName(root);
  if (root.namespaceURI !== UBL_NAMESPACES[name as 'Invoice' | 'CreditNote'])
    v.push(`UBL-SYNTAX root: ${name} is not in the UBL 2.1 ${name} namespace`);
  for (const child of Array.from(root.childNodes).filter((n) => n.nodeType === 1)) {
    const ns = child.namespaceURI;
    if (ns !== UBL_NAMESPACES.cbc && ns !== UBL_NAMESPACES.cac && !localName(child).startsWith('UBLExtensions'))
      v.push(`UBL-SYNTAX ${localName(child)}: not a UBL component (namespace ${ns ?? 'none'})`);
  }
  for (const single of [
    'CustomizationID',
    'ProfileID',
    'ID',
    'IssueDate',
    'DueDate',
    'DocumentCurrencyCode',
    'BuyerReference',
    'AccountingSupplierParty',
    'AccountingCustomerParty',
    'LegalMonetaryTotal',
  ])
    if (kids(root, single).length > 1) v.push(`UBL-SYNTAX ${single}: occurs more than once`);
  const issue = text(root, 'IssueDate');
  if (issue && !/^\d{4}-\d{2}-\d{2}$/.test(issue)) v.push(`UBL-SYNTAX IssueDate: ${issue} is not YYYY-MM-DD`);
  const monetary = one(root, 'LegalMonetaryTotal');
  for (const amount of Array.from(monetary?.childNodes ?? []).filter((n) => n.nodeType === 1))
    if (!attr(amount, 'currencyID')) v.push(`UBL-SYNTAX ${localName(amount)}: amount without currencyID`);
  return v;
}
