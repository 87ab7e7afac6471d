import { onFirstUse } from '../../../lib/lazy';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Invoice } from '../../../entities/core/invoice';
import { decimal } from './amounts';
import { decimalIn } from './currencies';
import { literal } from './escapeXml';
import { LINE_DISCOUNT, toEn16931, type En16931Document, type En16931Party } from './en16931Document';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xmlbuilder = onFirstUse(() => require('xmlbuilder2') as typeof import('xmlbuilder2'));

/**
 * The UBL 2.1 XML of an issued document: an `Invoice` (BT-3 380) or a `CreditNote` (381, amounts positive) in the
 * EN 16931 UBL binding, with the terms of en16931Document.ts, the same ones the CII writer (facturx.ts) places,
 * in the element order of the UBL 2.1 schemas. Dates are YYYY-MM-DD, every amount carries its currency (and its
 * decimals), a document in another currency than the accounting one carries BT-6 (TaxCurrencyCode) and a second
 * TaxTotal with the VAT total in it (BT-111), a note's
 * subject code (BT-21) is written `#CODE#text` (the convention the French CIUS and Peppol read).
 *
 * Where UBL differs: a CreditNote has no header due date (UBL 2.1 has none; BT-9 would need a payment means,
 * which a credit note does not carry here), and the remittance information (BT-83) is part of the payment means
 * (`PaymentMeans/PaymentID`), so a credit note carries none either.
 */
const NS = {
  Invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  CreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

const rate = (bp: number) => decimal(bp, 2);

function party(
  parent: XMLBuilder,
  role: 'cac:AccountingSupplierParty' | 'cac:AccountingCustomerParty',
  p: En16931Party,
) {
  const node = parent.ele(role).ele('cac:Party');
  if (p.endpoint) node.ele('cbc:EndpointID', { schemeID: p.endpoint.scheme }).txt(literal(p.endpoint.id));
  if (p.siret) node.ele('cac:PartyIdentification').ele('cbc:ID', { schemeID: '0009' }).txt(literal(p.siret));
  if (p.address) {
    const a = node.ele('cac:PostalAddress');
    a.ele('cbc:StreetName').txt(literal(p.address.line1));
    if (p.address.line2) a.ele('cbc:AdditionalStreetName').txt(literal(p.address.line2));
    if (p.address.city) a.ele('cbc:CityName').txt(literal(p.address.city));
    if (p.address.postalCode) a.ele('cbc:PostalZone').txt(literal(p.address.postalCode));
    a.ele('cac:Country').ele('cbc:IdentificationCode').txt(literal(p.address.country));
  }
  const taxScheme = (companyId: string, scheme: string) => {
    const s = node.ele('cac:PartyTaxScheme');
    s.ele('cbc:CompanyID').txt(literal(companyId));
    s.ele('cac:TaxScheme').ele('cbc:ID').txt(scheme);
  };
  if (p.vatNumber) taxScheme(p.vatNumber, 'VAT');
  else if (p.taxRegistration) taxScheme(p.taxRegistration, 'FC');
  const legal = node.ele('cac:PartyLegalEntity');
  legal.ele('cbc:RegistrationName').txt(literal(p.name));
  if (p.legalId) legal.ele('cbc:CompanyID', { schemeID: '0002' }).txt(literal(p.legalId));
}

function taxCategory(parent: XMLBuilder, name: string, category: string, rateBp: number | null) {
  const c = parent.ele(name);
  c.ele('cbc:ID').txt(category);
  if (rateBp !== null) c.ele('cbc:Percent').txt(rate(rateBp));
  return c;
}

/** The UBL XML of an issued invoice or credit note (`credited`: the invoice a credit note corrects). */
export function renderUbl(invoice: Invoice, credited?: Pick<Invoice, 'number' | 'issueDate'>): string {
  return writeUbl(toEn16931(invoice, credited));
}

/** The UBL 2.1 serialisation of the EN 16931 terms. */
export function writeUbl(d: En16931Document): string {
  const kind = d.credit ? 'CreditNote' : 'Invoice';
  const cur = { currencyID: d.currency };
  const money = (parent: XMLBuilder, name: string, minor: number) =>
    parent.ele(name, cur).txt(decimalIn(minor, d.currency));
  const root = xmlbuilder()
    .create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' })
    .ele(NS[kind], kind, { 'xmlns:cac': NS.cac, 'xmlns:cbc': NS.cbc });

  root.ele('cbc:CustomizationID').txt(d.specification);
  if (d.businessProcess) root.ele('cbc:ProfileID').txt(literal(d.businessProcess));
  root.ele('cbc:ID').txt(literal(d.number));
  root.ele('cbc:IssueDate').txt(d.issueDate);
  if (!d.credit && d.dueDate) root.ele('cbc:DueDate').txt(d.dueDate);
  root.ele(d.credit ? 'cbc:CreditNoteTypeCode' : 'cbc:InvoiceTypeCode').txt(d.typeCode);
  for (const note of d.notes)
    root.ele('cbc:Note').txt(literal(note.subject ? `#${note.subject}#${note.text}` : note.text));
  root.ele('cbc:DocumentCurrencyCode').txt(literal(d.currency));
  if (d.taxCurrency) root.ele('cbc:TaxCurrencyCode').txt(literal(d.taxCurrency.code));
  if (d.buyerReference) root.ele('cbc:BuyerReference').txt(literal(d.buyerReference));
  if (d.orderReference) root.ele('cac:OrderReference').ele('cbc:ID').txt(literal(d.orderReference));
  if (d.preceding) {
    const ref = root.ele('cac:BillingReference').ele('cac:InvoiceDocumentReference');
    ref.ele('cbc:ID').txt(literal(d.preceding.number));
    if (d.preceding.issueDate) ref.ele('cbc:IssueDate').txt(d.preceding.issueDate);
  }
  party(root, 'cac:AccountingSupplierParty', d.seller);
  party(root, 'cac:AccountingCustomerParty', d.buyer);

  const delivery = root.ele('cac:Delivery');
  delivery.ele('cbc:ActualDeliveryDate').txt(d.deliveryDate);
  if (d.shipToCountry)
    delivery
      .ele('cac:DeliveryLocation')
      .ele('cac:Address')
      .ele('cac:Country')
      .ele('cbc:IdentificationCode')
      .txt(literal(d.shipToCountry));

  if (d.creditTransfer) {
    const means = root.ele('cac:PaymentMeans');
    means.ele('cbc:PaymentMeansCode').txt('58');
    means.ele('cbc:PaymentID').txt(literal(d.paymentReference));
    const account = means.ele('cac:PayeeFinancialAccount');
    account.ele('cbc:ID').txt(literal(d.creditTransfer.iban));
    if (d.creditTransfer.bic)
      account.ele('cac:FinancialInstitutionBranch').ele('cbc:ID').txt(literal(d.creditTransfer.bic));
  }
  if (d.paymentTerms) root.ele('cac:PaymentTerms').ele('cbc:Note').txt(literal(d.paymentTerms));

  const taxTotal = root.ele('cac:TaxTotal');
  money(taxTotal, 'cbc:TaxAmount', d.totals.vatTotalCents);
  for (const group of d.vatBreakdown) {
    const sub = taxTotal.ele('cac:TaxSubtotal');
    money(sub, 'cbc:TaxableAmount', group.taxableCents);
    money(sub, 'cbc:TaxAmount', group.vatCents);
    const category = taxCategory(sub, 'cac:TaxCategory', group.category, group.rateBp);
    if (group.exemptionReasonCode) category.ele('cbc:TaxExemptionReasonCode').txt(literal(group.exemptionReasonCode));
    if (group.exemptionReason) category.ele('cbc:TaxExemptionReason').txt(literal(group.exemptionReason));
    category.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
  }

  // BT-111: a second TaxTotal in the VAT accounting currency, with its amount only (its amount only, as the EN 16931 UBL binding wants).
  if (d.taxCurrency)
    root
      .ele('cac:TaxTotal')
      .ele('cbc:TaxAmount', { currencyID: d.taxCurrency.code })
      .txt(decimalIn(d.taxCurrency.vatTotalCents, d.taxCurrency.code));

  const totals = root.ele('cac:LegalMonetaryTotal');
  money(totals, 'cbc:LineExtensionAmount', d.totals.lineTotalCents);
  money(totals, 'cbc:TaxExclusiveAmount', d.totals.taxExclusiveCents);
  money(totals, 'cbc:TaxInclusiveAmount', d.totals.grandTotalCents);
  money(totals, 'cbc:PayableAmount', d.totals.duePayableCents);

  for (const line of d.lines) {
    const item = root.ele(d.credit ? 'cac:CreditNoteLine' : 'cac:InvoiceLine');
    item.ele('cbc:ID').txt(line.id);
    item
      .ele(d.credit ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', { unitCode: line.unitCode })
      .txt(decimal(line.quantityMilli, 3));
    money(item, 'cbc:LineExtensionAmount', line.netCents);
    if (line.allowance) {
      const allowance = item.ele('cac:AllowanceCharge');
      allowance.ele('cbc:ChargeIndicator').txt('false');
      allowance.ele('cbc:AllowanceChargeReasonCode').txt(LINE_DISCOUNT.code);
      allowance.ele('cbc:AllowanceChargeReason').txt(LINE_DISCOUNT.reason);
      if (line.allowance.percentBp !== null)
        allowance.ele('cbc:MultiplierFactorNumeric').txt(rate(line.allowance.percentBp));
      money(allowance, 'cbc:Amount', line.allowance.amountCents);
      if (line.allowance.basisCents !== null) money(allowance, 'cbc:BaseAmount', line.allowance.basisCents);
    }
    const product = item.ele('cac:Item');
    product.ele('cbc:Name').txt(literal(line.name));
    const category = taxCategory(product, 'cac:ClassifiedTaxCategory', line.vatCategory, line.vatRateBp);
    category.ele('cac:TaxScheme').ele('cbc:ID').txt('VAT');
    money(item.ele('cac:Price'), 'cbc:PriceAmount', line.netPriceCents);
  }
  return root.end({ prettyPrint: true });
}
