import { onFirstUse } from '../../../lib/lazy';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type { Invoice } from '../../../entities/core/invoice';
import { decimal } from './amounts';
import { decimalIn } from './currencies';
import { literal } from './escapeXml';
import {
  EN16931_SPECIFICATION,
  LINE_DISCOUNT,
  toEn16931,
  type En16931Document,
  type En16931Party,
} from './en16931Document';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const xmlbuilder = onFirstUse(() => require('xmlbuilder2') as typeof import('xmlbuilder2'));

/**
 * The Factur-X / ZUGFeRD XML of an issued document: UN/CEFACT Cross Industry Invoice D16B, EN 16931 profile
 * (guideline urn:cen.eu:en16931:2017), built with xmlbuilder2 in the element order the CII schema requires.
 * Rendered from the stored (immutable) document only, so it is the same bytes every time.
 *
 * Mapping: BT-1 number, BT-2 issue date, BT-3 type 380 (invoice) / 381 (credit note, amounts positive),
 * BT-9 due date, BT-10 buyer reference, BT-13 purchase order, BT-20 payment terms, BT-22 note, BT-25/26 the
 * credited invoice, BT-27..BT-40 seller (SIREN as legal id scheme 0002, VAT number as VA), BT-44..BT-55 buyer,
 * BT-72 delivery date, BT-81/84/86 credit transfer (58) to the IBAN, BG-23 VAT breakdown, BG-25 lines with
 * their discount as a line allowance (BT-136..BT-139), BG-22 totals; BT-5 the currency (amounts with its decimals),
 * and in another currency than the accounting one BT-6 and the VAT total in it (BT-111, a second TaxTotalAmount). Category O documents carry no VAT numbers
 * (BR-O-02, BR-O-03). Every text from the document goes through literal(): the XML gives back exactly what was
 * entered, `&nbsp;` or `&amp;` included.
 */
export const FACTURX_GUIDELINE = EN16931_SPECIFICATION;

const NS = {
  'xmlns:rsm': 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  'xmlns:qdt': 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  'xmlns:ram': 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  'xmlns:udt': 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** YYYY-MM-DD as format 102 (YYYYMMDD). */
const date102 = (date: string) => date.replaceAll('-', '');
const rate = (bp: number) => decimal(bp, 2);

function dateTime(parent: XMLBuilder, name: string, date: string, prefix: 'udt' | 'qdt' = 'udt') {
  parent.ele(name).ele(`${prefix}:DateTimeString`, { format: '102' }).txt(date102(date));
}

function party(parent: XMLBuilder, name: string, p: En16931Party) {
  const node = parent.ele(name);
  if (p.siret) node.ele('ram:GlobalID', { schemeID: '0009' }).txt(literal(p.siret));
  node.ele('ram:Name').txt(literal(p.name));
  if (p.legalId) node.ele('ram:SpecifiedLegalOrganization').ele('ram:ID', { schemeID: '0002' }).txt(literal(p.legalId));
  if (p.address) {
    const a = node.ele('ram:PostalTradeAddress');
    if (p.address.postalCode) a.ele('ram:PostcodeCode').txt(literal(p.address.postalCode));
    a.ele('ram:LineOne').txt(literal(p.address.line1));
    if (p.address.line2) a.ele('ram:LineTwo').txt(literal(p.address.line2));
    if (p.address.city) a.ele('ram:CityName').txt(literal(p.address.city));
    a.ele('ram:CountryID').txt(literal(p.address.country));
  }
  if (p.endpoint)
    node
      .ele('ram:URIUniversalCommunication')
      .ele('ram:URIID', { schemeID: p.endpoint.scheme })
      .txt(literal(p.endpoint.id));
  if (p.vatNumber) node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'VA' }).txt(literal(p.vatNumber));
  else if (p.taxRegistration)
    node.ele('ram:SpecifiedTaxRegistration').ele('ram:ID', { schemeID: 'FC' }).txt(literal(p.taxRegistration));
}

/** The CII XML of an issued invoice or credit note (`credited`: the invoice a credit note corrects). */
export function renderFacturX(invoice: Invoice, credited?: Pick<Invoice, 'number' | 'issueDate'>): string {
  return writeCii(toEn16931(invoice, credited));
}

/** The CII serialisation of the EN 16931 terms. */
export function writeCii(d: En16931Document): string {
  const currency = d.currency;
  const amount = (minor: number) => decimalIn(minor, currency);
  // Characters XML 1.0 forbids are dropped: the edge refuses them in invoice fields, but names and addresses
  // come from the CRM and the business record, and documents issued before were stored with them.
  const root = xmlbuilder()
    .create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' })
    .ele('rsm:CrossIndustryInvoice', NS);

  const context = root.ele('rsm:ExchangedDocumentContext');
  if (d.businessProcess)
    context.ele('ram:BusinessProcessSpecifiedDocumentContextParameter').ele('ram:ID').txt(literal(d.businessProcess));
  context.ele('ram:GuidelineSpecifiedDocumentContextParameter').ele('ram:ID').txt(d.specification);

  const doc = root.ele('rsm:ExchangedDocument');
  doc.ele('ram:ID').txt(literal(d.number));
  doc.ele('ram:TypeCode').txt(d.typeCode);
  dateTime(doc, 'ram:IssueDateTime', d.issueDate);
  for (const note of d.notes) {
    const n = doc.ele('ram:IncludedNote');
    n.ele('ram:Content').txt(literal(note.text));
    if (note.subject) n.ele('ram:SubjectCode').txt(note.subject);
  }

  const tx = root.ele('rsm:SupplyChainTradeTransaction');
  for (const line of d.lines) {
    const item = tx.ele('ram:IncludedSupplyChainTradeLineItem');
    item.ele('ram:AssociatedDocumentLineDocument').ele('ram:LineID').txt(line.id);
    item.ele('ram:SpecifiedTradeProduct').ele('ram:Name').txt(literal(line.name));
    item
      .ele('ram:SpecifiedLineTradeAgreement')
      .ele('ram:NetPriceProductTradePrice')
      .ele('ram:ChargeAmount')
      .txt(amount(line.netPriceCents));
    item
      .ele('ram:SpecifiedLineTradeDelivery')
      .ele('ram:BilledQuantity', { unitCode: line.unitCode })
      .txt(decimal(line.quantityMilli, 3));
    const settlement = item.ele('ram:SpecifiedLineTradeSettlement');
    const tax = settlement.ele('ram:ApplicableTradeTax');
    tax.ele('ram:TypeCode').txt('VAT');
    tax.ele('ram:CategoryCode').txt(line.vatCategory);
    if (line.vatRateBp !== null) tax.ele('ram:RateApplicablePercent').txt(rate(line.vatRateBp));
    if (line.allowance) {
      const allowance = settlement.ele('ram:SpecifiedTradeAllowanceCharge');
      allowance.ele('ram:ChargeIndicator').ele('udt:Indicator').txt('false');
      if (line.allowance.percentBp !== null) {
        allowance.ele('ram:CalculationPercent').txt(rate(line.allowance.percentBp));
        if (line.allowance.basisCents !== null) allowance.ele('ram:BasisAmount').txt(amount(line.allowance.basisCents));
      }
      allowance.ele('ram:ActualAmount').txt(amount(line.allowance.amountCents));
      allowance.ele('ram:ReasonCode').txt(LINE_DISCOUNT.code);
      allowance.ele('ram:Reason').txt(LINE_DISCOUNT.reason);
    }
    settlement
      .ele('ram:SpecifiedTradeSettlementLineMonetarySummation')
      .ele('ram:LineTotalAmount')
      .txt(amount(line.netCents));
  }

  const agreement = tx.ele('ram:ApplicableHeaderTradeAgreement');
  if (d.buyerReference) agreement.ele('ram:BuyerReference').txt(literal(d.buyerReference));
  party(agreement, 'ram:SellerTradeParty', d.seller);
  party(agreement, 'ram:BuyerTradeParty', d.buyer);
  if (d.orderReference)
    agreement.ele('ram:BuyerOrderReferencedDocument').ele('ram:IssuerAssignedID').txt(literal(d.orderReference));

  const delivery = tx.ele('ram:ApplicableHeaderTradeDelivery');
  if (d.shipToCountry)
    delivery
      .ele('ram:ShipToTradeParty')
      .ele('ram:PostalTradeAddress')
      .ele('ram:CountryID')
      .txt(literal(d.shipToCountry));
  dateTime(delivery.ele('ram:ActualDeliverySupplyChainEvent'), 'ram:OccurrenceDateTime', d.deliveryDate);

  const settlement = tx.ele('ram:ApplicableHeaderTradeSettlement');
  settlement.ele('ram:PaymentReference').txt(literal(d.paymentReference));
  if (d.taxCurrency) settlement.ele('ram:TaxCurrencyCode').txt(literal(d.taxCurrency.code));
  settlement.ele('ram:InvoiceCurrencyCode').txt(literal(currency));
  if (d.creditTransfer) {
    const means = settlement.ele('ram:SpecifiedTradeSettlementPaymentMeans');
    means.ele('ram:TypeCode').txt('58');
    means.ele('ram:PayeePartyCreditorFinancialAccount').ele('ram:IBANID').txt(literal(d.creditTransfer.iban));
    if (d.creditTransfer.bic)
      means.ele('ram:PayeeSpecifiedCreditorFinancialInstitution').ele('ram:BICID').txt(literal(d.creditTransfer.bic));
  }
  for (const group of d.vatBreakdown) {
    const tax = settlement.ele('ram:ApplicableTradeTax');
    tax.ele('ram:CalculatedAmount').txt(amount(group.vatCents));
    tax.ele('ram:TypeCode').txt('VAT');
    if (group.exemptionReason) tax.ele('ram:ExemptionReason').txt(literal(group.exemptionReason));
    tax.ele('ram:BasisAmount').txt(amount(group.taxableCents));
    tax.ele('ram:CategoryCode').txt(group.category);
    if (group.exemptionReasonCode) tax.ele('ram:ExemptionReasonCode').txt(literal(group.exemptionReasonCode));
    if (group.rateBp !== null) tax.ele('ram:RateApplicablePercent').txt(rate(group.rateBp));
  }
  const terms = settlement.ele('ram:SpecifiedTradePaymentTerms');
  if (d.paymentTerms) terms.ele('ram:Description').txt(literal(d.paymentTerms));
  if (d.dueDate) dateTime(terms, 'ram:DueDateDateTime', d.dueDate);
  const totals = settlement.ele('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  totals.ele('ram:LineTotalAmount').txt(amount(d.totals.lineTotalCents));
  totals.ele('ram:TaxBasisTotalAmount').txt(amount(d.totals.taxExclusiveCents));
  totals.ele('ram:TaxTotalAmount', { currencyID: currency }).txt(amount(d.totals.vatTotalCents));
  if (d.taxCurrency)
    totals
      .ele('ram:TaxTotalAmount', { currencyID: d.taxCurrency.code })
      .txt(decimalIn(d.taxCurrency.vatTotalCents, d.taxCurrency.code));
  totals.ele('ram:GrandTotalAmount').txt(amount(d.totals.grandTotalCents));
  totals.ele('ram:DuePayableAmount').txt(amount(d.totals.duePayableCents));
  if (d.preceding) {
    const ref = settlement.ele('ram:InvoiceReferencedDocument');
    ref.ele('ram:IssuerAssignedID').txt(literal(d.preceding.number));
    if (d.preceding.issueDate) dateTime(ref, 'ram:FormattedIssueDateTime', d.preceding.issueDate, 'qdt');
  }
  return root.end({ prettyPrint: true });
}
