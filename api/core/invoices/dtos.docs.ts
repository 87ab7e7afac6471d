import { prose } from '../../http/docs';

/** The long OpenAPI texts of dtos.ts (prose: wrapped here, one line in the document). */

export const invoiceLineVatCategory = prose`
  EN 16931 VAT category: S standard, Z zero rated, E exempt (exemptionReason required), AE reverse charge, K
  intra-community supply, O not subject to VAT (alone on its invoice)
`;

export const creditNoteLines = prose`
  The lines credited (partial credit note); omitted: every line of the invoice (only while nothing is credited yet)
`;

export const invoiceCurrency = prose`
  ISO 4217 currency of the document (BT-5), by default the organisation's accounting currency (invoice settings, EUR).
  Every amount (unitPriceCents, discountCents, totals, payments) is an integer of its minor unit: cents of EUR or USD,
  yen of JPY. Currencies with more than 2 decimals (KWD, BHD, TND, CLF ...) are refused (400 currency_not_supported:
  EN 16931 amounts have at most 2 decimals); an unknown code 400 unknown_currency
`;

export const invoiceExchangeRate = prose`
  For a document not in the accounting currency: units of the accounting currency for 1 unit of the document's
  currency, as a decimal string ("0.9215"; up to 12 digits and 10 decimals). Given on the draft or when issuing
  (which wins); required at issue (400 exchange_rate_required), refused for a document in the accounting currency
  (400 exchange_rate_not_applicable); recorded with the issued document and never changed after
`;
