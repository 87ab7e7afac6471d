import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Response } from 'supertest';
import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import { customerOf, invoicingOrg, issued } from './support';

const UBL = readFileSync(join(__dirname, 'fixtures', 'supplier-ubl.xml'), 'utf8');

/** Supplier invoices: upload (Factur-X PDF, CII, UBL), checks, party matching, duplicates, inbox, immutability. */
describe('supplier invoices (reception)', () => {
  let stack: TestStack;
  let seller: Account;
  let buyer: Account;
  let sellerCustomerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    seller = await invoicingOrg(stack);
    buyer = await invoicingOrg(stack, { siren: '552100554', vatNumber: 'FR96552100554' });
    sellerCustomerId = (await customerOf(stack, seller, { name: 'Cabinet Girard' })).id;
  });
  afterAll(() => stack.close());

  const bytesOf = (res: Response) => res.body as Buffer;
  const binary = (req: ReturnType<TestStack['http']['get']>) =>
    req.buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
  const upload = (account: Account, body: Buffer | string, type: string) =>
    stack.http.post('/api/supplier-invoices').set(account.auth).set('Content-Type', type).send(body);
  const inbox = async (account: Account, query = '') => {
    const res = await stack.http.get(`/api/supplier-invoices${query}`).set(account.auth);
    expect(res.status).toBe(200);
    return res.body as { items: { id: string; number: string; supplierId: string }[] };
  };

  it('receives an issued Factur-X PDF and its CII XML, matches the supplier, keeps the bytes and spots duplicates', async () => {
    const first = await issued(stack, seller, sellerCustomerId, { dueDate: '2026-12-31' });
    const pdf = bytesOf(await binary(stack.http.get(`/api/invoices/${first.id}/pdf`).set(seller.auth)));
    const res = await upload(buyer, pdf, 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'received',
      format: 'factur-x',
      channel: 'upload',
      number: first.number,
      typeCode: '380',
      dueDate: '2026-12-31',
      seller: { name: 'Atelier Dupont SAS', siren: '732829320', vatNumber: 'FR44732829320' },
      lines: [expect.objectContaining({ name: 'Conseil', quantity: '2.000', netCents: 20_000, vatRate: '20.00' })],
      vatBreakdown: [{ category: 'S', rate: '20.00', taxableCents: 20_000, vatCents: 4_000, exemptionReason: null }],
      grandTotalCents: 24_000,
      duePayableCents: 24_000,
      paymentMeans: [{ typeCode: '58', iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP' }],
      originalSha256: createHash('sha256').update(pdf).digest('hex'),
      originalSize: pdf.length,
    });
    const supplierId = res.body.supplierId as string;
    const party = await stack.http.get(`/api/customers/${supplierId}`).set(buyer.auth);
    expect(party.status).toBe(200);
    expect(party.body).toMatchObject({ name: 'Atelier Dupont SAS', kind: 'organisation', roles: ['supplier'] });

    const original = await binary(stack.http.get(`/api/supplier-invoices/${res.body.id}/original`).set(buyer.auth));
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(bytesOf(original), pdf)).toBe(0);

    // The same invoice again (as PDF or as its XML): a duplicate, nothing stored.
    const again = await upload(buyer, pdf, 'application/pdf');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      code: 'supplier_invoice_duplicate',
      errors: [{ field: 'id', message: res.body.id }],
    });
    const xml = (await stack.http.get(`/api/invoices/${first.id}/einvoice/factur-x.xml`).set(seller.auth)).text;
    expect((await upload(buyer, xml, 'application/xml')).status).toBe(409);

    // The supplier's next invoice, as CII XML: the same CRM party.
    const second = await issued(stack, seller, sellerCustomerId);
    const secondXml = (await stack.http.get(`/api/invoices/${second.id}/einvoice/factur-x.xml`).set(seller.auth)).text;
    const next = await upload(buyer, secondXml, 'text/xml');
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ format: 'cii', supplierId, number: second.number });

    // Another organisation sees none of it.
    expect((await stack.http.get(`/api/supplier-invoices/${res.body.id}`).set(seller.auth)).status).toBe(404);
    expect((await inbox(seller)).items).toEqual([]);

    // The database keeps them as received: no change but the lifecycle, no deletion.
    const sql = stack.services.orm.em.getConnection();
    await expect(
      sql.execute(`update inv_supplier_invoices set grand_total_cents = 1 where id = ?`, [res.body.id]),
    ).rejects.toThrow(/cannot be changed/);
    await expect(
      sql.execute(`update inv_supplier_invoices set original = '\\x00' where id = ?`, [res.body.id]),
    ).rejects.toThrow(/cannot be changed/);
    await expect(sql.execute(`delete from inv_supplier_invoices where id = ?`, [res.body.id])).rejects.toThrow(
      /cannot be deleted/,
    );
  });

  it('receives a UBL 2.1 (Peppol BIS 3.0) invoice with its notes, VAT breakdown and payment means', async () => {
    const res = await upload(buyer, UBL, 'application/xml');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      format: 'ubl',
      number: 'FA-2026-0117',
      issueDate: '2026-11-20',
      dueDate: '2026-12-20',
      buyerReference: 'ATELIER-42',
      orderReference: 'PO-7781',
      paymentTerms: '30 jours fin de mois',
      seller: { name: 'Papeterie Lemoine SARL', siren: '552100554', electronicAddress: '0225:552100554' },
      buyer: { name: 'Atelier Dupont SAS', siren: '732829320' },
      vatBreakdown: [
        { category: 'S', rate: '20', taxableCents: 25_000, vatCents: 5_000 },
        { category: 'S', rate: '5.5', taxableCents: 5_000, vatCents: 275 },
      ],
      notes: [
        { subject: 'PMT', text: expect.stringContaining('40 EUR') },
        { subject: 'PMD', text: expect.any(String) },
        { subject: 'AAB', text: expect.any(String) },
      ],
      paymentMeans: [{ typeCode: '30', iban: 'FR7610107001011234567890129', bic: 'BREDFRPP' }],
      grandTotalCents: 35_275,
    });
    expect((await inbox(buyer, '?q=lemoine')).items.map((i) => i.number)).toEqual(['FA-2026-0117']);
    expect((await inbox(buyer, `?supplierId=${res.body.supplierId}`)).items).toHaveLength(1);
    expect((await inbox(buyer, '?issuedFrom=2026-11-20&issuedTo=2026-11-20')).items).toHaveLength(1);
    expect((await inbox(buyer, '?status=refused')).items).toHaveLength(0);
  });

  it('refuses what is not a valid invoice with the reason, and stores nothing', async () => {
    const before = (await inbox(buyer, '?limit=100')).items.length;
    const plain = await PDFDocument.create();
    plain.addPage();
    const cases: [string, Buffer | string, string, number, string][] = [
      ['a PDF without invoice XML', Buffer.from(await plain.save()), 'application/pdf', 422, 'einvoice_no_xml'],
      [
        'an XML that is not an invoice',
        '<?xml version="1.0"?><order><id>1</id></order>',
        'application/xml',
        422,
        'einvoice_not_invoice',
      ],
      ['bytes that are no XML', 'hello', 'application/xml', 422, 'einvoice_not_xml'],
      ['a document type declaration', '<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>', 'text/xml', 422, 'einvoice_not_xml'],
      ['another media type', UBL, 'text/plain', 415, 'unsupported_media_type'],
      ['50 MB', Buffer.alloc(50 * 1024 * 1024, 0x20), 'application/xml', 413, 'payload_too_large'],
    ];
    for (const [what, body, type, status, code] of cases) {
      const res = await upload(buyer, body, type);
      expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status, code });
    }
    // Schema-valid but breaking business rules: each broken rule named.
    const broken = UBL.replace('FA-2026-0117', 'FA-2026-0999')
      .replace('<cbc:PayableAmount currencyID="EUR">352.75', '<cbc:PayableAmount currencyID="EUR">350.00')
      .replace(
        '<cbc:TaxAmount currencyID="EUR">2.75</cbc:TaxAmount>',
        '<cbc:TaxAmount currencyID="EUR">3.75</cbc:TaxAmount>',
      );
    const res = await upload(buyer, broken, 'application/xml');
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('einvoice_rules_failed');
    expect((res.body.errors as { field: string }[]).map((e) => e.field)).toEqual(
      expect.arrayContaining(['BR-CO-16', 'BR-CO-17', 'BR-CO-14']),
    );
    expect((await inbox(buyer, '?limit=100')).items).toHaveLength(before);
  });
});
