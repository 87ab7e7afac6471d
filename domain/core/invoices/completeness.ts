import type { Invoice, InvoiceParty } from '../../../entities/core/invoice';
import { AppError, type FieldError } from '../../../lib/errors';

/**
 * What EN 16931 requires of the parties before a document may be issued, checked on the issuing transaction's
 * data so that every issued document renders valid Factur-X:
 *   seller name (BR-06), postal address with country (BR-08, BR-09); buyer name (BR-07), address with country
 *   (BR-10, BR-11); the seller's VAT number for S, Z, AE and K lines (BR-S-02, BR-Z-02, BR-AE-02, BR-IC-02),
 *   its VAT number or SIREN for E lines (BR-E-02), none of the VAT numbers with O lines (BR-O-02, BR-O-03:
 *   they are left out of the XML); the seller's SIREN when the document carries no seller VAT number (O lines,
 *   or no VAT number at all: BR-CO-26, the seller has a legal registration id, a VAT number or an identifier);
 *   the buyer's VAT number for AE and K lines (BR-AE-03/04, BR-IC-03/04); due date not before the issue date.
 */
export function checkIssuable(
  invoice: Pick<Invoice, 'lines' | 'dueDate'>,
  seller: InvoiceParty,
  buyer: InvoiceParty,
  issueDate: string,
): void {
  const errors: FieldError[] = [];
  const missing = (field: string, message: string) => errors.push({ field, message });
  const categories = new Set(invoice.lines.map((l) => l.vatCategory));
  if (!seller.name.trim()) missing('seller.name', 'the business record has no legal name');
  if (!seller.address?.country) missing('seller.address', 'the business record has no postal address with a country');
  if (['S', 'Z', 'AE', 'K'].some((c) => categories.has(c as never)) && !seller.vatNumber)
    missing('seller.vatNumber', 'the business record has no VAT number (required with VAT categories S, Z, AE and K)');
  if (categories.has('E') && !seller.vatNumber && !seller.legalId)
    missing(
      'seller.vatNumber',
      'the business record has neither a VAT number nor a SIREN (required with VAT category E)',
    );
  // BR-CO-26: without a VAT number in the XML (category O leaves it out), the SIREN (BT-30) identifies the seller.
  // A missing VAT number already named above (S, Z, AE, K, E lines) is the other way to satisfy it.
  const sellerVatInDocument = !categories.has('O') && !!seller.vatNumber;
  if (!sellerVatInDocument && !seller.legalId && !errors.some((e) => e.field === 'seller.vatNumber')) {
    missing(
      'seller.legalId',
      categories.has('O')
        ? 'the business record has no SIREN (required with VAT category O, whose documents carry no VAT number)'
        : 'the business record has neither a VAT number nor a SIREN (one identifies the seller)',
    );
  }
  if (!buyer.address?.country)
    missing(
      'buyer.address',
      'the customer has no postal address with a country: add one to the customer or give buyer.address',
    );
  if ((categories.has('AE') || categories.has('K')) && !buyer.vatNumber)
    missing('buyer.vatNumber', "the buyer's VAT number is required with VAT categories AE and K");
  if (invoice.dueDate && invoice.dueDate < issueDate) missing('dueDate', `is before the issue date ${issueDate}`);
  if (errors.length)
    throw new AppError(409, 'invoice_incomplete', 'The invoice cannot be issued until these details are given', errors);
}
