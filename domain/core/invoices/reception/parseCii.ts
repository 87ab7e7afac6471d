import {
  centsOf,
  decimalsOf,
  isoDateOf,
  type ReceivedDocument,
  type ReceivedLine,
  type ReceivedParty,
} from './document';
import { attr, kids, one, path, text, type El } from './xml';

export const CII_NAMESPACE = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';

function party(el: El | undefined): ReceivedParty {
  const legal = one(el, 'SpecifiedLegalOrganization/ID');
  const registrations = path(el, 'SpecifiedTaxRegistration/ID');
  const vat = registrations.find((r) => attr(r, 'schemeID') === 'VA');
  const other = registrations.find((r) => attr(r, 'schemeID') !== 'VA');
  const endpoint = one(el, 'URIUniversalCommunication/URIID');
  const address = one(el, 'PostalTradeAddress');
  return {
    name: text(el, 'Name'),
    legalId: legal?.textContent?.trim() || null,
    legalIdScheme: attr(legal, 'schemeID'),
    vatNumber: vat?.textContent?.trim() || null,
    taxId: other?.textContent?.trim() || null,
    id: text(el, 'ID') ?? text(el, 'GlobalID'),
    endpoint: endpoint?.textContent?.trim() || null,
    endpointScheme: attr(endpoint, 'schemeID'),
    address: address
      ? {
          line1: text(address, 'LineOne'),
          line2: text(address, 'LineTwo'),
          postalCode: text(address, 'PostcodeCode'),
          city: text(address, 'CityName'),
          country: text(address, 'CountryID'),
        }
      : null,
  };
}

const sumOf = (els: El[]) => els.reduce((s, a) => s + (centsOf(text(a, 'ActualAmount')) ?? 0), 0);

function line(item: El): ReceivedLine {
  const settlement = one(item, 'SpecifiedLineTradeSettlement');
  const allowances = kids(settlement, 'SpecifiedTradeAllowanceCharge');
  const isCharge = (a: El) => text(a, 'ChargeIndicator/Indicator') === 'true';
  const quantity = one(item, 'SpecifiedLineTradeDelivery/BilledQuantity');
  const net = text(settlement, 'SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount');
  const tax = one(settlement, 'ApplicableTradeTax');
  return {
    id: text(item, 'AssociatedDocumentLineDocument/LineID'),
    name: text(item, 'SpecifiedTradeProduct/Name'),
    quantity: quantity?.textContent?.trim() || null,
    unitCode: attr(quantity, 'unitCode'),
    netPriceCents: centsOf(text(item, 'SpecifiedLineTradeAgreement/NetPriceProductTradePrice/ChargeAmount')),
    allowanceCents: sumOf(allowances.filter((a) => !isCharge(a))),
    chargeCents: sumOf(allowances.filter(isCharge)),
    netCents: centsOf(net),
    netDecimals: decimalsOf(net),
    vatCategory: text(tax, 'CategoryCode'),
    vatRate: text(tax, 'RateApplicablePercent'),
  };
}

/** A UN/CEFACT CII D16B document (Factur-X, ZUGFeRD, the PPF's CII) read into the semantic model. */
export function parseCii(root: El): ReceivedDocument {
  const exchanged = one(root, 'ExchangedDocument');
  const tx = one(root, 'SupplyChainTradeTransaction');
  const agreement = one(tx, 'ApplicableHeaderTradeAgreement');
  const delivery = one(tx, 'ApplicableHeaderTradeDelivery');
  const settlement = one(tx, 'ApplicableHeaderTradeSettlement');
  const totals = one(settlement, 'SpecifiedTradeSettlementHeaderMonetarySummation');
  const terms = one(settlement, 'SpecifiedTradePaymentTerms');
  const amount = (name: string) => centsOf(text(totals, name));
  const issue = text(exchanged, 'IssueDateTime/DateTimeString');
  return {
    syntax: 'cii',
    specification: text(root, 'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter/ID'),
    businessProcess: text(root, 'ExchangedDocumentContext/BusinessProcessSpecifiedDocumentContextParameter/ID'),
    number: text(exchanged, 'ID'),
    typeCode: text(exchanged, 'TypeCode'),
    issueDateText: issue,
    issueDate: isoDateOf(issue),
    dueDate: isoDateOf(text(terms, 'DueDateDateTime/DateTimeString')),
    currency: text(settlement, 'InvoiceCurrencyCode'),
    buyerReference: text(agreement, 'BuyerReference'),
    orderReference: text(agreement, 'BuyerOrderReferencedDocument/IssuerAssignedID'),
    paymentTerms: text(terms, 'Description'),
    notes: kids(exchanged, 'IncludedNote').flatMap((n) => {
      const content = text(n, 'Content');
      return content ? [{ subject: text(n, 'SubjectCode'), text: content }] : [];
    }),
    precedingInvoice: text(settlement, 'InvoiceReferencedDocument/IssuerAssignedID'),
    deliveryDate: isoDateOf(text(delivery, 'ActualDeliverySupplyChainEvent/OccurrenceDateTime/DateTimeString')),
    shipToCountry: text(delivery, 'ShipToTradeParty/PostalTradeAddress/CountryID'),
    seller: party(one(agreement, 'SellerTradeParty')),
    buyer: party(one(agreement, 'BuyerTradeParty')),
    lines: kids(tx, 'IncludedSupplyChainTradeLineItem').map(line),
    vatBreakdown: kids(settlement, 'ApplicableTradeTax').map((b) => ({
      category: text(b, 'CategoryCode'),
      rate: text(b, 'RateApplicablePercent'),
      basisCents: centsOf(text(b, 'BasisAmount')),
      vatCents: centsOf(text(b, 'CalculatedAmount')),
      exemptionReason: text(b, 'ExemptionReason'),
      exemptionReasonCode: text(b, 'ExemptionReasonCode'),
    })),
    totals: {
      lineTotalCents: amount('LineTotalAmount'),
      allowanceTotalCents: amount('AllowanceTotalAmount'),
      chargeTotalCents: amount('ChargeTotalAmount'),
      taxBasisTotalCents: amount('TaxBasisTotalAmount'),
      // BT-110 is the TaxTotalAmount in the invoice currency (a second one may give it in the VAT currency).
      taxTotalCents: (() => {
        const all = kids(totals, 'TaxTotalAmount');
        const currency = text(settlement, 'InvoiceCurrencyCode');
        const el = all.find((t) => !attr(t, 'currencyID') || attr(t, 'currencyID') === currency) ?? all[0];
        return centsOf(el?.textContent);
      })(),
      grandTotalCents: amount('GrandTotalAmount'),
      prepaidCents: amount('TotalPrepaidAmount'),
      roundingCents: amount('RoundingAmount'),
      duePayableCents: amount('DuePayableAmount'),
    },
    paymentMeans: kids(settlement, 'SpecifiedTradeSettlementPaymentMeans').map((m) => ({
      typeCode: text(m, 'TypeCode'),
      iban: text(m, 'PayeePartyCreditorFinancialAccount/IBANID'),
      bic: text(m, 'PayeeSpecifiedCreditorFinancialInstitution/BICID'),
    })),
  };
}
