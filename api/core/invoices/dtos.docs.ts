import { prose } from '../../http/docs';

/** The long OpenAPI texts of dtos.ts (prose: wrapped here, one line in the document). */

export const invoiceLineVatCategory = prose`
  EN 16931 VAT category: S standard, Z zero rated, E exempt (exemptionReason required), AE reverse charge, K
  intra-community supply, O not subject to VAT (alone on its invoice)
`;

export const creditNoteLines = prose`
  The lines credited (partial credit note); omitted: every line of the invoice (only while nothing is credited yet)
`;
