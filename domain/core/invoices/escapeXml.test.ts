import type { Invoice, InvoiceParty } from '../../../entities/core/invoice';
import { computeInvoice } from './amounts';
import { escapeXml, literal } from './escapeXml';
import { renderFacturX } from './facturx';

describe('text written into XML', () => {
  it.each([
    ['Prix&nbsp;HT', 'Prix&amp;nbsp;HT'],
    ['R&amp;D', 'R&amp;amp;D'],
    ['Code &#65;', 'Code &amp;#65;'],
    ['Dupont & Fils', 'Dupont &amp; Fils'],
    ['<b>', '<b>'],
    ['', ''],
  ])('literal(%j) leaves xmlbuilder2 no entity to interpret', (text, out) => {
    expect(literal(text)).toBe(out);
  });

  it('escapes markup in hand-written XML', () => {
    expect(escapeXml('Client <b> & Co')).toBe('Client &lt;b&gt; &amp; Co');
    expect(escapeXml('Client &lt;b&gt;')).toBe('Client &amp;lt;b&amp;gt;');
  });

  it('gives back in the Factur-X XML exactly the text entered, entity-like text included', () => {
    const party = (name: string): InvoiceParty => ({
      name,
      legalId: '123456789',
      siret: null,
      vatNumber: 'FR32123456789',
      address: { line1: '1 rue & co', line2: null, postalCode: '75002', city: 'Paris', country: 'FR' },
      email: null,
      iban: null,
      bic: null,
    });
    const computed = computeInvoice([
      { description: 'Prix&nbsp;HT', quantity: 1, unitPriceCents: 10_000, vatRate: 20, vatCategory: 'S' },
    ]);
    const invoice = {
      id: 'x',
      kind: 'invoice',
      number: 'F-2026-00001',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      currency: 'EUR',
      note: 'R&amp;D',
      creditReason: null,
      buyerReference: 'Code &#65;',
      orderReference: null,
      paymentTerms: null,
      deliveryDate: null,
      seller: party('Atelier <Martin>'),
      buyer: party('Client &lt;b&gt; &amp; Co'),
      ...computed,
    } as unknown as Invoice;
    const xml = renderFacturX(invoice);
    expect(xml).toContain('<ram:Name>Prix&amp;nbsp;HT</ram:Name>');
    expect(xml).toContain('<ram:Content>R&amp;amp;D</ram:Content>');
    expect(xml).toContain('<ram:BuyerReference>Code &amp;#65;</ram:BuyerReference>');
    expect(xml).toContain('<ram:Name>Atelier &lt;Martin&gt;</ram:Name>');
    expect(xml).toContain('<ram:Name>Client &amp;lt;b&amp;gt; &amp;amp; Co</ram:Name>');
    expect(xml).toContain('<ram:LineOne>1 rue &amp; co</ram:LineOne>');
  });
});
