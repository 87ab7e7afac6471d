import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFString, PDFHexString } from 'pdf-lib';
import { tenantContext } from '../../../domain/context';
import { readTimeline } from '../../../domain/core/crm/timeline';
import { healthSignals } from '../../../domain/core/crm/healthSignals';
import '../../../domain/core/invoices/crmExtensions';
import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import { en16931Violations } from './en16931';
import { customerOf, draft, invoicingOrg, issued, line } from './support';
import { xsdErrors } from './xsd';
import { readXml, textsAt } from '../../support/xml';

/** The embedded file named `name` of a PDF (its decoded bytes), read the way a Factur-X reader does. */
async function embeddedFile(
  pdfBytes: Buffer,
  name: string,
): Promise<{ bytes: Buffer; relationship: string | undefined } | null> {
  const pdf = await PDFDocument.load(pdfBytes);
  const names = pdf.catalog
    .lookup(PDFName.of('Names'), PDFDict)
    .lookup(PDFName.of('EmbeddedFiles'), PDFDict)
    .lookup(PDFName.of('Names'), PDFArray);
  for (let i = 0; i < names.size(); i += 2) {
    const key = names.lookup(i) as PDFString | PDFHexString;
    if (key.decodeText() !== name) continue;
    const spec = names.lookup(i + 1, PDFDict);
    const stream = spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F')) as PDFRawStream;
    const raw = Buffer.from(stream.getContents());
    const filter = stream.dict.lookup(PDFName.of('Filter'));
    return {
      bytes: filter === PDFName.of('FlateDecode') ? inflateSync(raw) : raw,
      relationship: spec.lookup(PDFName.of('AFRelationship'))?.toString(),
    };
  }
  return null;
}

describe('invoices: credit notes, payments, Factur-X XML and PDF, CRM', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    customerId = (await customerOf(stack, org)).id;
  });
  afterAll(() => stack.close());

  const pdfOf = async (account: Account, id: string): Promise<Buffer> => {
    const res = await stack.http
      .get(`/api/invoices/${id}/pdf`)
      .set(account.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    return res.body as Buffer;
  };
  const xmlOf = async (id: string) => {
    const res = await stack.http.get(`/api/invoices/${id}/einvoice/factur-x.xml`).set(org.auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    return res.text;
  };

  it('records partial payments and derives the status; refuses overpayment and credit note payments', async () => {
    const inv = await issued(stack, org, customerId); // 200.00 + 40.00 VAT
    const pay = (body: object) => stack.http.post(`/api/invoices/${inv.id}/pay`).set(org.auth).send(body);
    const first = await pay({ amountCents: 10_000, method: 'card', reference: 'CB-1' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'partially_paid',
      paidCents: 10_000,
      outstandingCents: 14_000,
      payments: [expect.objectContaining({ amountCents: 10_000, method: 'card', reference: 'CB-1' })],
    });
    expect((await pay({ amountCents: 14_001 })).body.code).toBe('payment_exceeds_balance');
    expect((await pay({ paidOn: '2999-01-01' })).status).toBe(400);
    const rest = await pay({});
    expect(rest.body).toMatchObject({ status: 'paid', paidCents: 24_000, outstandingCents: 0 });
    expect((await pay({})).body.code).toBe('invoice_settled');
    // The detail read answers what the payment answered: the payments, oldest first.
    expect((await stack.http.get(`/api/invoices/${inv.id}`).set(org.auth)).body).toEqual(rest.body);
    expect(rest.body.payments).toEqual([
      expect.objectContaining({ amountCents: 10_000 }),
      expect.objectContaining({ amountCents: 14_000, method: 'bank_transfer', reference: null }),
    ]);
    const d = await draft(stack, org, customerId);
    expect((await stack.http.post(`/api/invoices/${d.id}/pay`).set(org.auth).send({})).body.code).toBe(
      'invoice_not_issued',
    );
  });

  it('issues full and partial credit notes referencing the invoice, with their own numbers and statuses', async () => {
    const inv = await issued(stack, org, customerId, {
      lines: [
        line({ quantity: 1, unitPriceCents: 10_000 }),
        line({ quantity: 1, unitPriceCents: 5_000, vatRate: 5.5 }),
      ],
    });
    const credit = (body: object) => stack.http.post(`/api/invoices/${inv.id}/credit-note`).set(org.auth).send(body);
    const partial = await credit({
      reason: 'Remise commerciale',
      lines: [line({ quantity: 1, unitPriceCents: 2_000 })],
    });
    expect(partial.status).toBe(201);
    expect(partial.headers.location).toBe(`/api/invoices/${partial.body.id}`);
    expect(partial.body).toMatchObject({
      kind: 'credit_note',
      status: 'issued',
      number: expect.stringMatching(/^AV-\d{4}-00001$/),
      creditedInvoiceId: inv.id,
      grandTotalCents: 2_400,
      creditReason: 'Remise commerciale',
      related: [expect.objectContaining({ id: inv.id, number: inv.number })],
    });
    expect(partial.body.buyer).toEqual(inv.buyer);
    // A credit note's detail: no payments, the credited invoice as its related document; the invoice's: its credit notes.
    expect((await stack.http.get(`/api/invoices/${partial.body.id}`).set(org.auth)).body).toEqual(partial.body);
    expect(partial.body.payments).toEqual([]);
    expect(partial.body.related).toEqual([
      {
        id: inv.id,
        kind: 'invoice',
        number: inv.number,
        issueDate: inv.issueDate,
        grandTotalCents: inv.grandTotalCents,
      },
    ]);
    const after = (await stack.http.get(`/api/invoices/${inv.id}`).set(org.auth)).body;
    expect(after.related).toEqual([
      {
        id: partial.body.id,
        kind: 'credit_note',
        number: partial.body.number,
        issueDate: partial.body.issueDate,
        grandTotalCents: 2_400,
      },
    ]);
    expect(after).toMatchObject({
      status: 'partially_credited',
      creditedCents: 2_400,
      outstandingCents: 12_000 + 5_275 - 2_400,
      related: [expect.objectContaining({ id: partial.body.id })],
    });
    expect((await credit({ reason: 'Tout' })).body.code).toBe('credit_lines_required');
    expect((await credit({ reason: 'Trop', lines: [line({ quantity: 1, unitPriceCents: 8_001 })] })).body.code).toBe(
      'credit_exceeds_invoice',
    );
    expect(
      (await credit({ reason: 'Taux absent', lines: [line({ quantity: 1, unitPriceCents: 1, vatRate: 10 })] })).body
        .code,
    ).toBe('credit_exceeds_invoice');
    expect(
      (await stack.http.post(`/api/invoices/${partial.body.id}/credit-note`).set(org.auth).send({ reason: 'x' })).body
        .code,
    ).toBe('not_an_invoice');
    expect((await stack.http.post(`/api/invoices/${partial.body.id}/pay`).set(org.auth).send({})).body.code).toBe(
      'credit_note_not_payable',
    );
    const paid = await stack.http.post(`/api/invoices/${inv.id}/pay`).set(org.auth).send({ amountCents: 1000 });
    expect(paid.body.status).toBe('partially_paid');
    const restCredit = await credit({
      reason: 'Annulation du solde',
      lines: [line({ quantity: 1, unitPriceCents: 8_000 }), line({ quantity: 1, unitPriceCents: 5_000, vatRate: 5.5 })],
    });
    expect(restCredit.body.number).toMatch(/-00002$/);
    // Credit notes covering the whole total make it credited, even after a payment (that one is refunded).
    expect((await stack.http.get(`/api/invoices/${inv.id}`).set(org.auth)).body).toMatchObject({
      status: 'credited',
      paidCents: 1000,
      creditedCents: 17_275,
      outstandingCents: 0,
    });

    const full = await issued(stack, org, customerId);
    const whole = await stack.http
      .post(`/api/invoices/${full.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Erreur de facturation' });
    expect(whole.body).toMatchObject({ grandTotalCents: full.grandTotalCents, lines: full.lines });
    expect((await stack.http.get(`/api/invoices/${full.id}`).set(org.auth)).body).toMatchObject({
      status: 'credited',
      outstandingCents: 0,
    });

    const xml = await xmlOf(whole.body.id);
    expect(xml).toContain('<ram:TypeCode>381</ram:TypeCode>');
    expect(xml).toContain(`<ram:IssuerAssignedID>${full.number}</ram:IssuerAssignedID>`);
    expect(en16931Violations(xml)).toEqual([]);
    expect(await xsdErrors(xml)).toEqual([]);
  });

  it('settles an invoice credited line by line exactly: the credit notes add up to its VAT per breakdown', async () => {
    const credit = (id: string, lines: object[]) =>
      stack.http.post(`/api/invoices/${id}/credit-note`).set(org.auth).send({ reason: 'Retour marchandise', lines });
    const valid = async (id: string) => {
      const xml = await xmlOf(id);
      expect(en16931Violations(xml)).toEqual([]);
      expect(await xsdErrors(xml)).toEqual([]);
    };
    // 2 × 10.03 € at 20 %: VAT round(4.012) = 4.01. Alone, each line's VAT would round up to 2.01 (4.02 in all):
    // the second credit note gets 2.00, what remains of the invoice's VAT.
    const a = line({ description: 'Article A', quantity: 1, unitPriceCents: 1003 });
    const b = line({ description: 'Article B', quantity: 1, unitPriceCents: 1003 });
    const up = await issued(stack, org, customerId, { lines: [a, b] });
    expect(up).toMatchObject({ taxExclusiveCents: 2006, vatTotalCents: 401, grandTotalCents: 2407 });
    const first = await credit(up.id, [a]);
    expect(first.body).toMatchObject({ vatTotalCents: 201, grandTotalCents: 1204 });
    const second = await credit(up.id, [b]);
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({
      taxExclusiveCents: 1003,
      vatTotalCents: 200,
      grandTotalCents: 1203,
      vatBreakdown: [expect.objectContaining({ category: 'S', rate: 20, taxableCents: 1003, vatCents: 200 })],
    });
    expect((await stack.http.get(`/api/invoices/${up.id}`).set(org.auth)).body).toMatchObject({
      status: 'credited',
      creditedCents: 2407,
      outstandingCents: 0,
    });
    expect((await credit(up.id, [line({ quantity: 1, unitPriceCents: 1 })])).body.code).toBe('credit_exceeds_invoice');
    await valid(first.body.id);
    await valid(second.body.id); // 2.00 for 10.03 at 20 %: within BR-CO-17's tolerance

    // 2 × 10.02 € at 20 %: VAT round(4.008) = 4.01; alone each would round down to 2.00 (a cent never credited).
    const c = line({ description: 'Article C', quantity: 1, unitPriceCents: 1002 });
    const down = await issued(stack, org, customerId, { lines: [c, c] });
    expect(down).toMatchObject({ vatTotalCents: 401, grandTotalCents: 2405 });
    expect((await credit(down.id, [c])).body).toMatchObject({ vatTotalCents: 200, grandTotalCents: 1202 });
    const last = await credit(down.id, [c]);
    expect(last.body).toMatchObject({ vatTotalCents: 201, grandTotalCents: 1203 });
    expect((await stack.http.get(`/api/invoices/${down.id}`).set(org.auth)).body).toMatchObject({
      status: 'credited',
      creditedCents: 2405,
      outstandingCents: 0,
    });
    await valid(last.body.id);

    // Several rates, credited in three notes cutting across lines: each breakdown ends exactly at the invoice's.
    const mixed = await issued(stack, org, customerId, {
      lines: [
        line({ quantity: 3, unitPriceCents: 333 }),
        line({ quantity: 3, unitPriceCents: 667, vatRate: 5.5 }),
        line({ quantity: 1, unitPriceCents: 1001, vatRate: 0, vatCategory: 'Z' }),
      ],
    });
    const notes = [
      await credit(mixed.id, [
        line({ quantity: 1, unitPriceCents: 333 }),
        line({ quantity: 1, unitPriceCents: 667, vatRate: 5.5 }),
      ]),
      await credit(mixed.id, [
        line({ quantity: 1, unitPriceCents: 333 }),
        line({ quantity: 1, unitPriceCents: 667, vatRate: 5.5 }),
        line({ quantity: 1, unitPriceCents: 1001, vatRate: 0, vatCategory: 'Z' }),
      ]),
      await credit(mixed.id, [
        line({ quantity: 1, unitPriceCents: 333 }),
        line({ quantity: 1, unitPriceCents: 667, vatRate: 5.5 }),
      ]),
    ];
    expect(notes.map((n) => n.status)).toEqual([201, 201, 201]);
    expect(notes.reduce((sum, n) => sum + (n.body.vatTotalCents as number), 0)).toBe(mixed.vatTotalCents);
    expect((await stack.http.get(`/api/invoices/${mixed.id}`).set(org.auth)).body).toMatchObject({
      status: 'credited',
      creditedCents: mixed.grandTotalCents,
      outstandingCents: 0,
    });
    for (const n of notes) await valid(n.body.id);
  });

  it('refuses to issue a category O invoice whose seller has no SIREN: nothing would identify it (BR-CO-26)', async () => {
    const noSiren = await invoicingOrg(stack, { siren: null });
    const buyer = await customerOf(stack, noSiren);
    const outOfScope = await draft(stack, noSiren, buyer.id, { lines: [line({ vatRate: 0, vatCategory: 'O' })] });
    const res = await stack.http.post(`/api/invoices/${outOfScope.id}/issue`).set(noSiren.auth);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      code: 'invoice_incomplete',
      errors: [{ field: 'seller.legalId', message: expect.stringContaining('SIREN') }],
    });
    expect((await stack.http.get(`/api/invoices/${outOfScope.id}`).set(noSiren.auth)).body).toMatchObject({
      status: 'draft',
      number: null,
    });
    // Its VAT number identifies the seller of any other invoice.
    const vatOnly = await issued(stack, noSiren, buyer.id);
    expect(
      en16931Violations(
        await (
          await stack.http.get(`/api/invoices/${vatOnly.id}/einvoice/factur-x.xml`).set(noSiren.auth)
        ).text,
      ),
    ).toEqual([]);
    // Neither VAT number nor SIREN: refused whatever the categories.
    const bare = await invoicingOrg(stack, { siren: null, vatNumber: null });
    const bareBuyer = await customerOf(stack, bare);
    const exempt = await draft(stack, bare, bareBuyer.id, {
      lines: [line({ vatRate: 0, vatCategory: 'E', exemptionReason: 'TVA non applicable, art. 293 B du CGI' })],
    });
    expect((await stack.http.post(`/api/invoices/${exempt.id}/issue`).set(bare.auth)).body).toMatchObject({
      code: 'invoice_incomplete',
      errors: [{ field: 'seller.vatNumber' }],
    });
    const out = await draft(stack, bare, bareBuyer.id, { lines: [line({ vatRate: 0, vatCategory: 'O' })] });
    expect((await stack.http.post(`/api/invoices/${out.id}/issue`).set(bare.auth)).body).toMatchObject({
      code: 'invoice_incomplete',
      errors: [{ field: 'seller.legalId' }],
    });
    // With the SIREN the category O document names it (BT-30), and the checker does look for it.
    const o = await issued(stack, org, customerId, { lines: [line({ vatRate: 0, vatCategory: 'O' })] });
    const xml = await xmlOf(o.id);
    expect(en16931Violations(xml)).toEqual([]);
    expect(
      en16931Violations(xml.replace(/<ram:SpecifiedLegalOrganization>[\s\S]*?<\/ram:SpecifiedLegalOrganization>/, '')),
    ).toEqual([expect.stringMatching(/^BR-CO-26/)]);
  });

  it('renders Factur-X XML that passes the EN 16931 rules and the official XSD for several kinds of invoices', async () => {
    const eu = await customerOf(stack, org, { name: 'Müller GmbH', country: 'DE' });
    const cases: Record<string, unknown>[] = [
      {
        lines: [
          line({ quantity: 1.5, unitPriceCents: 3333, discountPercent: 12.5 }),
          line({ vatRate: 10, unitPriceCents: 4550 }),
          line({ vatRate: 5.5, quantity: 3, unitPriceCents: 1999, discountCents: 99 }),
          line({ vatRate: 2.1, unitPriceCents: 1234 }),
        ],
        note: 'Merci <&> "à bientôt"',
        buyerReference: 'SERVICE-ACHATS',
        orderReference: 'PO-42',
        deliveryDate: '2026-01-15',
      },
      {
        lines: [
          line(),
          {
            description: 'Formation professionnelle',
            quantity: 7,
            unitCode: 'HUR',
            unitPriceCents: 6000,
            vatRate: 0,
            vatCategory: 'E',
            exemptionReason: 'Exonération, art. 261-4-4° a du CGI',
          },
          { description: 'Export hors UE', quantity: 1, unitPriceCents: 10_000, vatRate: 0, vatCategory: 'Z' },
        ],
      },
      {
        customerId: eu.id,
        lines: [
          { description: 'Machine', quantity: 1, unitPriceCents: 500_000, vatRate: 0, vatCategory: 'K' },
          { description: 'Pose', quantity: 1, unitPriceCents: 50_000, vatRate: 0, vatCategory: 'AE' },
        ],
        buyer: { vatNumber: 'DE123456789', legalId: 'HRB 1234' },
      },
      { lines: [{ description: 'Débours', quantity: 1, unitPriceCents: 1234, vatRate: 0, vatCategory: 'O' }] },
    ];
    for (const body of cases) {
      const inv = await issued(stack, org, (body.customerId as string) ?? customerId, body);
      const xml = await xmlOf(inv.id);
      expect({ number: inv.number, violations: en16931Violations(xml) }).toEqual({
        number: inv.number,
        violations: [],
      });
      expect(await xsdErrors(xml)).toEqual([]);
      expect(await xmlOf(inv.id)).toBe(xml);
    }
    // The checks do catch what they look for.
    const inv = await issued(stack, org, customerId);
    const xml = await xmlOf(inv.id);
    expect(
      en16931Violations(
        xml.replace(/<ram:TaxTotalAmount currencyID="EUR">[^<]+</, '<ram:TaxTotalAmount currencyID="EUR">1.00<'),
      ),
    ).toEqual(expect.arrayContaining([expect.stringMatching(/^BR-CO-14/), expect.stringMatching(/^BR-CO-15/)]));
    expect(await xsdErrors(xml.replace('<ram:TypeCode>380</ram:TypeCode>', ''))).not.toEqual([]);
    const d = await draft(stack, org, customerId);
    expect((await stack.http.get(`/api/invoices/${d.id}/einvoice/factur-x.xml`).set(org.auth)).body.code).toBe(
      'invoice_not_issued',
    );
    // Stored text with characters XML 1.0 forbids (a name from the CRM, a line kept from before they were
    // refused) is printed without them: the document stays well-formed.
    const odd = await customerOf(stack, org, { name: 'Client\u0001 Martin\u001f' });
    const old = await issued(stack, org, odd.id);
    await (
      await stack.asOwner()
    ).em
      .fork()
      .execute(
        `alter table inv_invoices disable trigger inv_invoices_immutable; update inv_invoices set lines = jsonb_set(lines, '{0,description}', to_jsonb(E'Conseil\\u0001 fin'::text)) where id = ?; alter table inv_invoices enable trigger inv_invoices_immutable`,
        [old.id],
      );
    const cleaned = await xmlOf(old.id);
    expect(cleaned).toContain('<ram:Name>Client Martin</ram:Name>');
    expect(cleaned).toContain('<ram:Name>Conseil fin</ram:Name>');
    expect(await xsdErrors(cleaned)).toEqual([]);
  });

  it('gives back every text exactly as entered, entity-like text included, in the XML and the PDF', async () => {
    // xmlbuilder2 leaves `&word;` and `&#digits;` unescaped: each field below would come out undefined or altered.
    const own = await invoicingOrg(stack);
    const business = (await stack.http.get('/api/businesses').set(own.auth)).body as { id: string };
    const seller = {
      legalName: 'Atelier R&amp;D &#233;tudes',
      address: {
        line1: '12 rue du Pr&eacute;',
        line2: 'B&acirc;t. &#65;',
        postalCode: '75&#48;11',
        city: 'Paris &lt;11e&gt;',
        country: 'FR',
      },
    };
    expect((await stack.http.patch(`/api/businesses/${business.id}`).set(own.auth).send(seller)).status).toBe(200);
    const customer = await stack.http
      .post('/api/customers')
      .set(own.auth)
      .send({ kind: 'organisation', name: 'Client &lt;b&gt; &amp; Co' });
    expect(customer.status).toBe(201);
    const buyer = {
      legalId: 'HRB&#49;234',
      address: {
        line1: '5 avenue &Foch;',
        line2: '&#x42;âtiment B',
        postalCode: '69&#48;06',
        city: 'Lyon &amp; environs',
        country: 'FR',
      },
    };
    const texts = {
      lines: ['Prix&nbsp;HT', 'R&amp;D', 'Code &#65;', 'Formation &sect; 4'],
      exemptionReason: 'Exon&eacute;ration, art. 261-4-4&#176; a du CGI',
      note: 'Merci &hellip; &#x1F600; <&> "à bientôt"',
      paymentTerms: '30 jours &agrave; r&eacute;ception',
      buyerReference: 'REF&amp;1',
      orderReference: 'PO&#35;42',
      creditReason: 'Retour &amp; avoir &#8364;',
    };
    const inv = await issued(stack, own, customer.body.id, {
      lines: [
        ...texts.lines.slice(0, 3).map((description) => line({ description })),
        line({ description: texts.lines[3], vatRate: 0, vatCategory: 'E', exemptionReason: texts.exemptionReason }),
      ],
      note: texts.note,
      paymentTerms: texts.paymentTerms,
      buyerReference: texts.buyerReference,
      orderReference: texts.orderReference,
      buyer,
    });
    const xmlRes = await stack.http.get(`/api/invoices/${inv.id}/einvoice/factur-x.xml`).set(own.auth);
    const xml = xmlRes.text;
    const read = await readXml(xml);
    expect(read.errors).toEqual([]);
    const at = (suffix: string) => textsAt(read.texts, suffix);
    const party = (role: string, field: string) => at(`ram:${role}TradeParty/${field}`);
    expect(party('Seller', 'ram:Name')).toEqual([seller.legalName]);
    expect(party('Seller', 'ram:PostalTradeAddress/ram:LineOne')).toEqual([seller.address.line1]);
    expect(party('Seller', 'ram:PostalTradeAddress/ram:LineTwo')).toEqual([seller.address.line2]);
    expect(party('Seller', 'ram:PostalTradeAddress/ram:PostcodeCode')).toEqual([seller.address.postalCode]);
    expect(party('Seller', 'ram:PostalTradeAddress/ram:CityName')).toEqual([seller.address.city]);
    expect(party('Buyer', 'ram:Name')).toEqual(['Client &lt;b&gt; &amp; Co']);
    expect(party('Buyer', 'ram:SpecifiedLegalOrganization/ram:ID')).toEqual([buyer.legalId]);
    expect(party('Buyer', 'ram:PostalTradeAddress/ram:LineOne')).toEqual([buyer.address.line1]);
    expect(party('Buyer', 'ram:PostalTradeAddress/ram:LineTwo')).toEqual([buyer.address.line2]);
    expect(party('Buyer', 'ram:PostalTradeAddress/ram:PostcodeCode')).toEqual([buyer.address.postalCode]);
    expect(party('Buyer', 'ram:PostalTradeAddress/ram:CityName')).toEqual([buyer.address.city]);
    expect(at('ram:SpecifiedTradeProduct/ram:Name')).toEqual(texts.lines);
    expect(at('ram:ApplicableHeaderTradeSettlement/ram:ApplicableTradeTax/ram:ExemptionReason')).toEqual([
      texts.exemptionReason,
    ]);
    expect(at('rsm:ExchangedDocument/ram:IncludedNote/ram:Content')).toEqual([texts.note]);
    expect(at('ram:SpecifiedTradePaymentTerms/ram:Description')).toEqual([texts.paymentTerms]);
    expect(at('ram:ApplicableHeaderTradeAgreement/ram:BuyerReference')).toEqual([texts.buyerReference]);
    expect(at('ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID')).toEqual([texts.orderReference]);
    expect(en16931Violations(xml)).toEqual([]);
    expect(await xsdErrors(xml)).toEqual([]);

    const credit = await stack.http
      .post(`/api/invoices/${inv.id}/credit-note`)
      .set(own.auth)
      .send({ reason: texts.creditReason });
    expect(credit.status).toBe(201);
    const creditXml = (await stack.http.get(`/api/invoices/${credit.body.id}/einvoice/factur-x.xml`).set(own.auth))
      .text;
    const creditRead = await readXml(creditXml);
    expect(creditRead.errors).toEqual([]);
    expect(textsAt(creditRead.texts, 'ram:IncludedNote/ram:Content')).toEqual([texts.creditReason]);
    expect(textsAt(creditRead.texts, 'ram:SpecifiedTradeProduct/ram:Name')).toEqual(texts.lines);
    expect(textsAt(creditRead.texts, 'ram:BuyerTradeParty/ram:Name')).toEqual(['Client &lt;b&gt; &amp; Co']);
    expect(await xsdErrors(creditXml)).toEqual([]);

    // The PDF embeds those same bytes, and its XMP packet is well-formed XML too.
    const pdfBytes = await pdfOf(own, inv.id);
    expect((await embeddedFile(pdfBytes, 'factur-x.xml'))!.bytes.toString('utf8')).toBe(xml);
    const xmp = Buffer.from(
      ((await PDFDocument.load(pdfBytes)).catalog.lookup(PDFName.of('Metadata')) as PDFRawStream).getContents(),
    ).toString('utf8');
    const xmpRead = await readXml(xmp);
    expect(xmpRead.errors).toEqual([]);
    expect(textsAt(xmpRead.texts, 'dc:title/rdf:Alt/rdf:li')).toEqual([`Facture ${inv.number}`]);
  });

  it('serves a PDF carrying the same XML as factur-x.xml with Factur-X metadata', async () => {
    const inv = await issued(stack, org, customerId, {
      lines: Array.from({ length: 60 }, (_, i) =>
        line({ description: `Prestation n° ${i + 1} — détail ✓ ${'long '.repeat(i % 7)}` }),
      ),
    });
    const pdfBytes = await pdfOf(org, inv.id);
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    const file = await embeddedFile(pdfBytes, 'factur-x.xml');
    expect(file?.relationship).toBe('/Alternative');
    expect(file!.bytes.toString('utf8')).toBe(await xmlOf(inv.id));
    const pdf = await PDFDocument.load(pdfBytes);
    expect(pdf.getPageCount()).toBeGreaterThan(1);
    expect(pdf.catalog.lookup(PDFName.of('AF'), PDFArray).size()).toBe(1);
    const xmp = Buffer.from((pdf.catalog.lookup(PDFName.of('Metadata')) as PDFRawStream).getContents()).toString(
      'utf8',
    );
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
  });

  it('puts issued invoices on the customer timeline and feeds the unpaid invoices health signal', async () => {
    const own = await invoicingOrg(stack);
    const customer = await customerOf(stack, own);
    await draft(stack, own, customer.id);
    const inv = await issued(stack, own, customer.id, { dueDate: undefined });
    const ctx = tenantContext(stack.services, own.tenantId, own.user.id);
    const page = await readTimeline(ctx, customer.id, { limit: 10, sources: ['invoice'] });
    expect(page.items).toEqual([
      expect.objectContaining({
        source: 'invoice',
        id: inv.id,
        type: 'issued',
        title: `Facture ${inv.number}`,
        data: expect.objectContaining({ outstandingCents: inv.grandTotalCents }),
      }),
    ]);
    const signal = healthSignals().find((s) => s.key === 'unpaid_invoices')!;
    const soon = await signal.compute(ctx, [customer.id], new Date());
    expect(soon.get(customer.id)).toMatchObject({
      value: 0.8,
      facts: expect.objectContaining({ overdueCents: 0, outstandingCents: inv.grandTotalCents }),
    });
    const late = await signal.compute(ctx, [customer.id], new Date(Date.now() + 60 * 86_400_000));
    expect(late.get(customer.id)).toMatchObject({
      value: expect.closeTo(0.2, 5),
      facts: expect.objectContaining({ overdueInvoices: 1 }),
    });
    await stack.http.post(`/api/invoices/${inv.id}/pay`).set(own.auth).send({});
    expect((await signal.compute(ctx, [customer.id], new Date())).get(customer.id)).toMatchObject({ value: 1 });
  });
});
