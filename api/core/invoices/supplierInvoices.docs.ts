import { prose } from '../../http/docs';

/** The long OpenAPI texts of supplierInvoices.ts (reception of supplier invoices). */

export const receiveSupplierInvoiceDocs = prose`
  Receives a supplier invoice: the body is the document's bytes, a Factur-X / ZUGFeRD PDF (application/pdf: the
  embedded factur-x.xml is read), a UN/CEFACT CII XML or a UBL 2.1 Invoice or CreditNote (application/xml or
  text/xml), 10 MB at most (413 beyond). The document is held to the EN 16931 business rules the issuing side is held
  to (mandatory content, totals, VAT breakdowns and categories) and, in UBL, to the syntax binding; then its seller is
  matched to a CRM party by SIREN or VAT number (a party with the role supplier is created when none matches) and the
  original bytes are stored unchanged (the database refuses to alter or delete them), with what was read. 422
  \`einvoice_rules_failed\` lists each broken rule in \`errors\` (the rule id as \`field\`, what was found as
  \`message\`); 422 \`einvoice_no_xml\` (a PDF without invoice XML), \`einvoice_not_xml\`, \`einvoice_not_invoice\`
  (XML of another kind); 415 \`unsupported_media_type\` for another media type. A refused document leaves nothing
  stored. The same seller's number in the same year received again is 409 \`supplier_invoice_duplicate\` (the
  first's id in \`errors\`).
`;

export const listSupplierInvoicesDocs = prose`
  The supplier-invoice inbox, newest first: filter by status, supplier (CRM party), issue date range, overdue (still
  to pay after the due date) and text (part of the number or of the seller's name).
`;

export const supplierInvoiceOriginalDocs = prose`
  The bytes exactly as received (application/pdf for a Factur-X, application/xml otherwise); their SHA-256 is the
  invoice's originalSha256.
`;

export const lifecycleDocs = prose`
  Moves the received invoice along its lifecycle (received, then approved, refused or paid; approved, then paid or
  refused; refused and paid are final: 409 \`supplier_invoice_status_final\`) and emits the status to the supplier
  through the e-invoicing platform: the change and its status message commit together and a job sends it (retried,
  reported once: the message id is the platform's Idempotency-Key), so it is never lost. The same action again
  answers the invoice unchanged. \`statusMessages\` shows each status and whether it was sent (\`not_sent\` when no
  platform is configured).
`;
