import { prose } from '../../http/docs';

/** The long OpenAPI texts of invoices.ts (prose: wrapped here, one line in the document). */

/** How amounts are computed and rounded, said on every route that takes lines. */
export const ROUNDING = prose`
  Amounts are integers in cents (EUR). Line net = round(quantity × unit price) − discount; per VAT breakdown (category +
  rate) taxable = Σ line nets and VAT = round(taxable × rate), rounded once per breakdown as EN 16931 does (BR-CO-17),
  never per line; grand total = Σ nets + Σ breakdown VAT. Rounding is half up, to the cent.
`;

export const createDraftDocs = prose`
  A draft for a customer of the CRM (404 when the organisation has no such customer): lines with quantity (3 decimals),
  unit price, VAT rate and EN 16931 category (S, Z, E, AE, K, O with an exemption reason where the category needs one)
  and an optional discount. ${ROUNDING} A draft has no number; it is edited (PUT) or deleted freely until issued.
`;

export const replaceDraftDocs = prose`
  The whole draft is replaced by the body (same shape as POST). Only while draft: 409 \`invoice_not_draft\` once issued.
  ${ROUNDING}
`;

export const deleteDraftDocs = prose`
  Only drafts: an issued invoice or credit note is kept (409 \`invoice_not_draft\`; the database refuses it too).
`;

export const issueDraftDocs = prose`
  Gives the draft the next number of the organisation's invoice sequence (gapless and chronological: taken inside the
  issuing transaction under the counter's row lock; prefix and yearly reset in /api/invoices/settings), dates it today
  (Europe/Paris), copies the seller (business record) and the buyer (customer and the draft's buyer details), and sets
  the due date (draft's, else issue date + dueDays) and payment terms. It records the organisation's accounting
  currency and, for a document in another currency, the exchange rate: an optional body \`{ "exchangeRate": "0.9215" }\` (units of the
  accounting currency for 1 unit of the document's), else the draft's; 400 \`exchange_rate_required\` without one,
  \`exchange_rate_not_applicable\` when given for a document in the accounting currency. From then on the document never changes (the
  database refuses it) except its settlement. 409 \`invoice_not_draft\` when already issued; 409 \`invoice_incomplete\`
  with field errors when EN 16931 needs details that are missing (seller address or VAT number, seller SIREN when the
  document carries no seller VAT number, as with category O (BR-CO-26), buyer address with country, buyer VAT number for
  AE/K, due date before today); 409 \`invoice_number_taken\` when the numbering settings would repeat an issued number.
  A document from a French seller to a French business (buyer SIREN given or in its French VAT number) gets the terms of
  the French e-invoicing reform (billing framework BT-23 from operationCategory, the coded mentions PMT/PMD/AAB, SIREN
  electronic addresses) and must pass the French CTC rules: 409 \`invoice_french_rules_failed\` otherwise, one entry per
  broken rule in errors (field: the rule id, e.g. BR-FR-10), no number taken (docs/e-invoicing.md).
`;

export const creditNoteDocs = prose`
  A credit note (type 381) correcting an issued invoice, issued at once with the next number of the credit-note sequence
  and referencing the invoice. Without lines it credits every line (only while nothing is credited yet, else 409
  \`credit_lines_required\`); with lines, those (partial). All credit notes of an invoice together stay within its
  amount per VAT category and rate (409 \`credit_exceeds_invoice\`). A credit note's VAT per category and rate is
  round(taxable credited so far × rate) less the VAT its earlier credit notes credited, and exactly the rest of the
  invoice's VAT once that category and rate is fully credited: the credit notes add up to the invoice's VAT, so
  crediting it line by line leaves nothing outstanding (a credit note's VAT may differ by one cent from round(its own
  taxable × rate), within EN 16931's tolerance). The invoice's status follows: partially_credited or credited (see GET).
  Answers the credit note. 409 \`invoice_not_issued\` for a draft (delete it instead), \`not_an_invoice\` for a credit
  note; \`invoice_french_rules_failed\` as for issuing.
`;

export const creditNoteConflictDocs = prose`
  \`invoice_not_issued\`, \`not_an_invoice\`, \`credit_lines_required\`, \`credit_exceeds_invoice\`,
  \`invoice_number_taken\`, \`invoice_french_rules_failed\`
`;

export const recordPaymentDocs = prose`
  Records a payment received (partial allowed; by default everything outstanding, today, by bank transfer). The status
  follows: partially_paid, then paid once payments and credit notes cover the grand total. 409
  \`payment_exceeds_balance\` above what is outstanding, \`invoice_settled\` when nothing is, \`invoice_not_issued\` for
  a draft, \`credit_note_not_payable\` for a credit note. Payments are append-only. Answers the invoice.
`;

export const sendInvoiceDocs = prose`
  Mails an issued invoice or credit note to the buyer's address printed on it (template \`core_invoice\`, through
  the outbox): amount, due date and the signed customer link to read it and download its Factur-X PDF (the mail
  layer has no attachments). Each call mails once more. 409 \`invoice_not_issued\` for a draft,
  \`invoice_no_recipient\` when the buyer has no e-mail address.
`;

export const publicInvoiceDocs = prose`
  What the customer's signed link shows (no account; the token is \`<invoice id>.<HMAC>\`, no organisation id): the
  document as issued, its status, what was paid and what is left, and its PDF link. 404 for a bad token or a draft.
`;

export const paymentLinkConflicts =
  '`online_payment_disabled`, `invoice_not_issued`, `invoice_paid`, `invoice_credited`, `credit_note_not_payable`';

export const paymentLinkDocs = prose`
  Opens the hosted payment page (Stripe Checkout, mode payment) of an issued invoice for what is outstanding, in
  its currency, and answers its address and expiry, to send to the customer. The page still open for the same
  amount is answered again instead of opening another. The payment, once Stripe reports it (webhook
  \`checkout.session.completed\`), is recorded on the invoice once (method card), which is paid when nothing is
  left. 409 \`online_payment_disabled\` unless the organisation enabled online payment (accounting settings
  \`onlinePaymentEnabled\`), \`invoice_not_issued\` for a draft, \`invoice_paid\` or \`invoice_credited\` when
  nothing is outstanding, \`credit_note_not_payable\` for a credit note; 503 when payments are not configured.
`;

export const publicPayDocs = prose`
  The customer pays from the signed link (no account): opens, or reuses, the hosted payment page of the invoice
  the token names, as POST /api/invoices/{id}/payment-link does, and answers its address. 404 for a bad token or a
  draft; 409 as there.
`;
