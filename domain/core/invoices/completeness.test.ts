import type { InvoiceLine, InvoiceParty, VatCategory } from '../../../entities/core/invoice';
import { AppError } from '../../../lib/errors';
import { checkIssuable } from './completeness';

const party = (extra: Partial<InvoiceParty> = {}): InvoiceParty => ({
  name: 'Atelier Martin SARL',
  legalId: '123456789',
  siret: null,
  vatNumber: 'FR32123456789',
  address: { line1: '1 rue de la Paix', line2: null, postalCode: '75002', city: 'Paris', country: 'FR' },
  email: null,
  iban: null,
  bic: null,
  ...extra,
});
const lines = (...categories: VatCategory[]) => categories.map((vatCategory) => ({ vatCategory }) as InvoiceLine);
const draft = (categories: VatCategory[], dueDate: string | null = null) => ({ lines: lines(...categories), dueDate });

/** The fields the 409 names, or [] when the document may be issued. */
function missing(
  invoice: ReturnType<typeof draft>,
  seller: InvoiceParty,
  buyer: InvoiceParty,
  issueDate = '2026-03-02',
): string[] {
  try {
    checkIssuable(invoice, seller, buyer, issueDate);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 409, code: 'invoice_incomplete' });
    return (err as AppError).errors!.map((e) => e.field);
  }
}

describe('what an invoice needs before it is issued (EN 16931)', () => {
  it('issues a complete document', () => {
    expect(missing(draft(['S']), party(), party({ vatNumber: null, legalId: null }))).toEqual([]);
    expect(missing(draft(['S'], '2026-03-02'), party(), party())).toEqual([]);
  });

  it("names the seller's missing name and address (BR-06, BR-08) and the buyer's address (BR-10)", () => {
    expect(missing(draft(['S']), party({ name: ' ', address: null }), party({ address: null }))).toEqual([
      'seller.name',
      'seller.address',
      'buyer.address',
    ]);
    expect(
      missing(
        draft(['S']),
        party(),
        party({ address: { line1: 'x', line2: null, postalCode: null, city: null, country: '' } }),
      ),
    ).toEqual(['buyer.address']);
  });

  it.each(['S', 'Z', 'AE', 'K'] as const)("needs the seller's VAT number with category %s", (category) => {
    const buyer = party();
    expect(missing(draft([category]), party({ vatNumber: null }), buyer)).toEqual(['seller.vatNumber']);
  });

  it('takes a VAT number or a SIREN with category E (BR-E-02)', () => {
    expect(missing(draft(['E']), party({ vatNumber: null }), party())).toEqual([]);
    expect(missing(draft(['E']), party({ legalId: null }), party())).toEqual([]);
    expect(missing(draft(['E']), party({ vatNumber: null, legalId: null }), party())).toEqual(['seller.vatNumber']);
  });

  it('needs the SIREN with category O, whose documents carry no VAT number (BR-CO-26)', () => {
    expect(missing(draft(['O']), party({ legalId: null }), party())).toEqual(['seller.legalId']);
    expect(missing(draft(['O']), party({ vatNumber: null }), party())).toEqual([]);
  });

  it("needs the buyer's VAT number for reverse charge and intra-community supplies", () => {
    expect(missing(draft(['AE']), party(), party({ vatNumber: null }))).toEqual(['buyer.vatNumber']);
    expect(missing(draft(['S', 'K']), party(), party({ vatNumber: null }))).toEqual(['buyer.vatNumber']);
    expect(missing(draft(['S']), party(), party({ vatNumber: null }))).toEqual([]);
  });

  it('refuses a due date before the issue date, and names every problem at once', () => {
    expect(missing(draft(['S'], '2026-03-01'), party(), party())).toEqual(['dueDate']);
    expect(
      missing(
        draft(['AE'], '2026-03-01'),
        party({ vatNumber: null, address: null }),
        party({ vatNumber: null, address: null }),
      ),
    ).toEqual(['seller.address', 'seller.vatNumber', 'buyer.address', 'buyer.vatNumber', 'dueDate']);
  });
});
