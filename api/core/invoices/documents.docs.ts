import { prose } from '../../http/docs';

/** The long OpenAPI texts of documents.ts (prose: wrapped here, one line in the document). */

export const facturXmlDocs = prose`
  The Cross Industry Invoice of an issued invoice or credit note, valid against the Factur-X 1.07 EN 16931 schema; the
  same bytes every time. 409 \`invoice_not_issued\` for a draft.
`;

export const ublXmlDocs = prose`
  The UBL 2.1 document of an issued invoice (\`Invoice\`, type 380) or credit note (\`CreditNote\`, type 381) in the EN
  16931 UBL binding: the same business terms as the Factur-X XML (one mapping serves both syntaxes), the same bytes
  every time. 409 \`invoice_not_issued\` for a draft.
`;

export const invoicePdfDocs = prose`
  A readable PDF of an issued invoice or credit note carrying its Factur-X XML as the embedded file factur-x.xml
  (AFRelationship Alternative) with Factur-X XMP metadata (EN 16931). 409 \`invoice_not_issued\` for a draft.
`;

export const einvoiceStateDocs = prose`
  not_submitted, or the submission to the e-invoicing platform with its lifecycle status and history (queued, submitted,
  then as the platform reports: delivered, received, approved, disputed, refused, paid; rejected when the platform
  refused the document; failed when it could not be reached after every retry).
`;

export const submitEInvoiceDocs = prose`
  Queues the Factur-X PDF of an issued invoice or credit note for the configured platform (PDP/PPF): 202 with status
  queued; a worker sends it, retried with exponential backoff while the platform fails, and never twice (the submission
  is unique per document and the platform receives an Idempotency-Key). Submitting again answers the existing submission
  with 200 (one still queued is put back in the queue if it is not there: safe to repeat after a failed call). A
  submission that \`failed\` (the platform could not be reached after every retry) is resubmitted: 202, queued again.
  503 \`einvoice_platform_not_configured\` without EINVOICE_PLATFORM_URL; 409 \`invoice_not_issued\` for a draft.
`;
