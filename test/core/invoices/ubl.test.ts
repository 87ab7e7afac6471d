import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import type { ReceivedDocument } from '../../../domain/core/invoices/reception/document';
import { readDocument } from '../../../domain/core/invoices/reception/readDocument';
import { customerOf, draft, invoicingOrg, issued, line } from './support';
import { en16931Violations } from './en16931';
import { xsdErrors } from './xsd';
import { FRENCH_MENTIONS } from '../../../domain/core/invoices/frenchCtc';

/**
 * UBL 2.1 rendering of issued documents: GET /api/invoices/{id}/einvoice/ubl.xml. What is written is read back
 * by the suite's own reception (readDocument: the EN 16931 rules on the semantic model plus the UBL syntax
 * binding), compared term by term with what the Factur-X XML of the same document says, and uploaded to another
 * organisation as a supplier invoice with the same totals.
 */
describe('invoices: UBL 2.1 rendering', () => {
  let stack: TestStack;
  let seller: Account;
  let buyer: Account;
  let customerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    seller = await invoicingOrg(stack);
    buyer = await invoicingOrg(stack, { siren: '552100554', vatNumber: 'FR96552100554' });
    customerId = (await customerOf(stack, seller)).id;
  });
  afterAll(() => stack.close());

  const ublOf = async (id: string, account = seller) => {
    const res = await stack.http.get(`/api/invoices/${id}/einvoice/ubl.xml`).set(account.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    return res;
  };
  const ciiOf = async (id: string) =>
    (await stack.http.get(`/api/invoices/${id}/einvoice/factur-x.xml`).set(seller.auth)).text;
  /** The terms both syntaxes carry (what differs by syntax left out: see ubl.ts). */
  const terms = (d: ReceivedDocument) => {
    const { syntax: _syntax, issueDateText: _text, lines, ...rest } = d;
    return { ...rest, lines: lines.map(({ netDecimals: _d, ...l }) => l) };
  };

  it('renders an invoice the reception reads back with the same terms as its Factur-X XML', async () => {
    const inv = await issued(stack, seller, customerId, {
      lines: [
        line({ quantity: 2.5, unitPriceCents: 12_345, discountPercent: 10 }),
        line({ description: 'Livre', quantity: 3, unitPriceCents: 1_999, vatRate: 5.5, discountCents: 500 }),
        line({
          description: 'Formation',
          quantity: 1,
          unitPriceCents: 80_000,
          vatRate: 0,
          vatCategory: 'E',
          exemptionReason: 'Exonération, article 261-4-4° du CGI',
        }),
      ],
      note: 'Merci & à bientôt <3',
      buyerReference: 'SERVICE-ACHATS',
      orderReference: 'PO-2026-17',
      deliveryDate: '2026-01-15',
      dueDate: '2026-12-31',
    });
    const res = await ublOf(inv.id);
    expect(res.headers['content-disposition']).toBe(`inline; filename="${inv.number}.ubl.xml"`);
    const xml = res.text;
    expect(xml).toContain('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"');
    // The same bytes every time.
    expect((await ublOf(inv.id)).text).toBe(xml);

    const ubl = await readDocument(Buffer.from(xml));
    expect(ubl.format).toBe('ubl');
    const d = ubl.document;
    expect(d).toMatchObject({
      number: inv.number,
      typeCode: '380',
      issueDate: inv.issueDate,
      dueDate: '2026-12-31',
      deliveryDate: '2026-01-15',
      currency: 'EUR',
      buyerReference: 'SERVICE-ACHATS',
      orderReference: 'PO-2026-17',
      notes: [{ subject: null, text: 'Merci & à bientôt <3' }],
      seller: { name: 'Atelier Dupont SAS', legalId: '732829320', vatNumber: 'FR44732829320' },
      buyer: { name: 'Client Martin SARL' },
      paymentMeans: [{ typeCode: '58', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' }],
      totals: {
        lineTotalCents: inv.lineTotalCents,
        taxBasisTotalCents: inv.taxExclusiveCents,
        taxTotalCents: inv.vatTotalCents,
        grandTotalCents: inv.grandTotalCents,
        duePayableCents: inv.grandTotalCents,
      },
    });
    expect(d.lines.map((l) => [l.name, l.netCents, l.allowanceCents, l.vatCategory])).toEqual(
      (inv.lines as { description: string; netCents: number; discountCents: number; vatCategory: string }[]).map(
        (l) => [l.description, l.netCents, l.discountCents, l.vatCategory],
      ),
    );
    expect(d.vatBreakdown.map((g) => [g.category, g.basisCents, g.vatCents])).toEqual(
      (inv.vatBreakdown as { category: string; taxableCents: number; vatCents: number }[]).map((g) => [
        g.category,
        g.taxableCents,
        g.vatCents,
      ]),
    );

    // CII and UBL of one document say the same thing, term by term; the CII one still passes the CII rules.
    const ciiXml = await ciiOf(inv.id);
    expect(en16931Violations(ciiXml)).toEqual([]);
    const cii = await readDocument(Buffer.from(ciiXml));
    expect(terms(d)).toEqual(terms(cii.document));
  });

  it('renders a credit note as a UBL CreditNote referencing the invoice it corrects', async () => {
    const inv = await issued(stack, seller, customerId, {
      lines: [line(), line({ description: 'Matériel', quantity: 1, unitPriceCents: 5_000, vatRate: 10 })],
    });
    const credit = await stack.http
      .post(`/api/invoices/${inv.id}/credit-note`)
      .set(seller.auth)
      .send({
        reason: 'Retour du matériel',
        lines: [line({ description: 'Matériel', quantity: 1, unitPriceCents: 5_000, vatRate: 10 })],
      });
    expect(credit.status).toBe(201);
    const xml = (await ublOf(credit.body.id)).text;
    expect(xml).toContain('<CreditNote xmlns="urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"');
    const { document: d } = await readDocument(Buffer.from(xml));
    expect(d).toMatchObject({
      number: credit.body.number,
      typeCode: '381',
      precedingInvoice: inv.number,
      notes: [{ subject: null, text: 'Retour du matériel' }],
      paymentMeans: [],
      totals: { taxBasisTotalCents: 5_000, taxTotalCents: 500, grandTotalCents: 5_500, duePayableCents: 5_500 },
      lines: [expect.objectContaining({ name: 'Matériel', quantity: '1.000', netCents: 5_000, vatRate: '10.00' })],
    });
    // Beside the terms UBL places elsewhere (a credit note's due date and remittance), the same as the CII.
    const cii = await readDocument(Buffer.from(await ciiOf(credit.body.id)));
    expect({ ...terms(d), dueDate: null }).toEqual({ ...terms(cii.document), dueDate: null });
  });

  it('is received by another organisation as a supplier invoice with the same totals', async () => {
    const inv = await issued(stack, seller, customerId, {
      lines: [line({ quantity: 7, unitPriceCents: 1_234 }), line({ vatRate: 5.5, unitPriceCents: 333 })],
    });
    const xml = (await ublOf(inv.id)).text;
    const res = await stack.http
      .post('/api/supplier-invoices')
      .set(buyer.auth)
      .set('Content-Type', 'application/xml')
      .send(xml);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      format: 'ubl',
      number: inv.number,
      typeCode: '380',
      seller: { name: 'Atelier Dupont SAS', siren: '732829320', vatNumber: 'FR44732829320' },
      taxExclusiveCents: inv.taxExclusiveCents,
      vatTotalCents: inv.vatTotalCents,
      grandTotalCents: inv.grandTotalCents,
      duePayableCents: inv.grandTotalCents,
    });
    // The same invoice again, as its CII: a duplicate of the UBL one.
    const again = await stack.http
      .post('/api/supplier-invoices')
      .set(buyer.auth)
      .set('Content-Type', 'application/xml')
      .send(await ciiOf(inv.id));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('supplier_invoice_duplicate');
  });

  it('answers 409 for a draft and 404 for another organisation’s invoice', async () => {
    const d = await draft(stack, seller, customerId);
    const res = await stack.http.get(`/api/invoices/${d.id}/einvoice/ubl.xml`).set(seller.auth);
    expect(res.status).toBe(409);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('invoice_not_issued');
    const inv = await issued(stack, seller, customerId);
    expect((await stack.http.get(`/api/invoices/${inv.id}/einvoice/ubl.xml`).set(buyer.auth)).status).toBe(404);
    expect((await stack.http.get(`/api/invoices/not-a-uuid/einvoice/ubl.xml`).set(seller.auth)).status).toBe(400);
  });
  describe('French CTC terms and rules (BR-FR)', () => {
    const frenchBuyer = { legalId: '552100554', vatNumber: 'FR96552100554' };

    it('issues documents to a French business with the terms the platforms require, in CII and UBL', async () => {
      const inv = await issued(stack, seller, customerId, {
        buyer: frenchBuyer,
        operationCategory: 'goods',
        note: 'Merci',
      });
      expect(inv.operationCategory).toBe('goods');
      const ciiXml = await ciiOf(inv.id);
      expect(await xsdErrors(ciiXml)).toEqual([]);
      expect(en16931Violations(ciiXml)).toEqual([]);
      const credit = await stack.http
        .post(`/api/invoices/${inv.id}/credit-note`)
        .set(seller.auth)
        .send({ reason: 'Erreur' });
      expect(credit.status).toBe(201);
      for (const id of [inv.id, credit.body.id]) {
        for (const xml of [await ciiOf(id), (await ublOf(id)).text]) {
          const { document: d } = await readDocument(Buffer.from(xml));
          expect(d.businessProcess).toBe('B1');
          expect(d.notes.filter((n) => n.subject)).toEqual([
            { subject: 'BAR', text: 'B2B' },
            { subject: 'PMT', text: FRENCH_MENTIONS.PMT },
            { subject: 'PMD', text: FRENCH_MENTIONS.PMD },
            { subject: 'AAB', text: FRENCH_MENTIONS.AAB },
          ]);
          expect(d.seller).toMatchObject({
            id: '73282932000074',
            legalId: '732829320',
            endpoint: '732829320',
            endpointScheme: '0225',
          });
          expect(d.buyer).toMatchObject({ legalId: '552100554', endpoint: '552100554', endpointScheme: '0225' });
        }
      }
      // Outside the scope (a buyer without SIREN): no BT-23, the e-mail address as before.
      const b2c = await issued(stack, seller, customerId);
      const { document: plain } = await readDocument(Buffer.from((await ublOf(b2c.id)).text));
      expect(plain.businessProcess).toBeNull();
      expect(plain.seller.endpointScheme).toBe('EM');
    });

    it('refuses to issue a document breaking them, naming the rules, and takes no number', async () => {
      const broken = await invoicingOrg(stack, { siren: '73282932' }); // 8 digits; its SIRET 73282932000074
      const buyerId = (await customerOf(stack, broken)).id;
      const d = await draft(stack, broken, buyerId, { buyer: frenchBuyer });
      const res = await stack.http.post(`/api/invoices/${d.id}/issue`).set(broken.auth);
      expect(res.status).toBe(409);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        code: 'invoice_french_rules_failed',
        errors: [
          { field: 'BR-FR-09', message: expect.stringContaining('73282932000074') },
          { field: 'BR-FR-10', message: expect.stringContaining('"73282932", not 9 digits') },
        ],
      });
      const after = (await stack.http.get(`/api/invoices/${d.id}`).set(broken.auth)).body;
      expect(after).toMatchObject({ status: 'draft', number: null });
      // The same organisation's invoice outside the scope is issued, with the first number: none was lost.
      const other = await issued(stack, broken, buyerId);
      expect(other.number).toMatch(/-00001$/);
    });

    it('refuses an operation category it does not know', async () => {
      const res = await stack.http
        .post('/api/invoices')
        .set(seller.auth)
        .send({ customerId, lines: [line()], operationCategory: 'rental' });
      expect(res.status).toBe(400);
    });
  });
});
