import { inflateSync } from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';
import { fecViolations } from '../../../domain/core/invoices/accounting/fecCheck';
import { FEC_COLUMNS } from '../../../domain/core/invoices/accounting/fec';
import { readDocument } from '../../../domain/core/invoices/reception/readDocument';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import { en16931Violations } from './en16931';
import { customerOf, draft, invoicingOrg, line } from './support';
import { xsdErrors } from './xsd';

/** The texts a PDF's pages draw (pdf-lib writes each string as a hex string in WinAnsi, shown with Tj). */
async function pdfTexts(bytes: Buffer): Promise<string[]> {
  const pdf = await PDFDocument.load(bytes);
  const texts: string[] = [];
  for (const page of pdf.getPages()) {
    const contents: PDFObject | undefined = page.node.get(PDFName.of('Contents'));
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    for (const ref of refs) {
      const stream = pdf.context.lookup(ref) as PDFRawStream;
      const raw = Buffer.from(stream.getContents());
      const data = stream.dict.lookup(PDFName.of('Filter')) === PDFName.of('FlateDecode') ? inflateSync(raw) : raw;
      for (const m of data.toString('latin1').matchAll(/<([0-9A-Fa-f]*)> Tj/g))
        texts.push(Buffer.from(m[1]!, 'hex').toString('latin1').replaceAll('\x80', '€'));
    }
  }
  return texts;
}

const rowsOf = (fec: string) =>
  fec
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => Object.fromEntries(l.split('\t').map((v, i) => [FEC_COLUMNS[i], v])) as Record<string, string>);

/**
 * Invoices in other currencies than the accounting one (EUR): the rate recorded at issue and frozen, BT-6/BT-111 in
 * CII and UBL, amounts with the currency's decimals, yen rounding, the FEC in EUR with Montantdevise/Idevise.
 */
describe('invoices: currencies and exchange rates', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    customerId = (await customerOf(stack, org)).id;
  });
  afterAll(() => stack.close());

  const issue = (id: string, exchangeRate?: string) =>
    stack.http
      .post(`/api/invoices/${id}/issue`)
      .set(org.auth)
      .send(exchangeRate === undefined ? undefined : { exchangeRate });
  const get = (path: string) => stack.http.get(path).set(org.auth).buffer(true);
  const binary = (path: string) =>
    stack.http
      .get(path)
      .set(org.auth)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => done(null, Buffer.concat(chunks)));
      });

  it('issues a USD invoice with its rate: BT-6 and BT-111 in CII and UBL, valid, printed in USD', async () => {
    const made = await draft(stack, org, customerId, {
      currency: 'USD',
      lines: [line({ quantity: 3, unitPriceCents: 12_345 }), line({ unitPriceCents: 1_999, vatRate: 5.5 })],
    });
    expect(made).toMatchObject({ currency: 'USD', exchangeRate: null, accountingCurrency: null });
    const res = await issue(made.id, '0.92150');
    expect(res.status).toBe(200);
    // 370.35 USD at 20 %: VAT 74.07 -> 68.26 EUR; 39.98 at 5.5 %: 2.20 -> 2.03 EUR; BT-111 70.29 EUR.
    expect(res.body).toMatchObject({
      currency: 'USD',
      accountingCurrency: 'EUR',
      exchangeRate: '0.9215',
      taxExclusiveCents: 41_033,
      vatTotalCents: 7_627,
      grandTotalCents: 48_660,
      vatTotalAccountingCents: 7_029,
    });
    expect((await get(`/api/invoices/${made.id}`)).body).toMatchObject({ exchangeRate: '0.9215' });

    const cii = (await get(`/api/invoices/${made.id}/einvoice/factur-x.xml`)).text;
    expect(await xsdErrors(cii)).toEqual([]);
    expect(en16931Violations(cii)).toEqual([]);
    expect(cii).toContain('<ram:TaxCurrencyCode>EUR</ram:TaxCurrencyCode>');
    expect(cii).toContain('<ram:InvoiceCurrencyCode>USD</ram:InvoiceCurrencyCode>');
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="USD">76.27</ram:TaxTotalAmount>');
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="EUR">70.29</ram:TaxTotalAmount>');

    const ubl = (await get(`/api/invoices/${made.id}/einvoice/ubl.xml`)).text;
    expect(ubl).toContain('<cbc:TaxCurrencyCode>EUR</cbc:TaxCurrencyCode>');
    expect(ubl).toMatch(/<cac:TaxTotal>\s*<cbc:TaxAmount currencyID="EUR">70.29<\/cbc:TaxAmount>\s*<\/cac:TaxTotal>/);
    // The suite's reception holds it to the EN 16931 rules and the UBL binding, as a receiver would.
    const read = await readDocument(Buffer.from(ubl));
    expect(read.document).toMatchObject({ currency: 'USD', totals: expect.objectContaining({ taxTotalCents: 7_627 }) });

    const pdf = await binary(`/api/invoices/${made.id}/pdf`);
    expect(pdf.status).toBe(200);
    const texts = await pdfTexts(pdf.body as Buffer);
    expect(texts).toEqual(
      expect.arrayContaining(['486,60 USD', '123,45 USD', 'Taux : 1 USD = 0,9215 EUR', 'TVA en EUR : 70,29 €']),
    );
    expect(texts.some((t) => t.includes('€') && t.includes('486'))).toBe(false);
  });

  it('rounds a JPY invoice to the yen, writes no decimals, and takes the rate from the draft', async () => {
    const made = await draft(stack, org, customerId, {
      currency: 'JPY',
      exchangeRate: '0.0061',
      // 1.5 × 333 = 499.5 -> 500 yen; 0.333 × 1 001 = 333.333 -> 333; VAT 20 % of 833 = 166.6 -> 167
      lines: [line({ quantity: 1.5, unitPriceCents: 333 }), line({ quantity: 0.333, unitPriceCents: 1_001 })],
    });
    expect(made).toMatchObject({ lineTotalCents: 833, vatTotalCents: 167, grandTotalCents: 1_000 });
    const res = await issue(made.id);
    expect(res.status).toBe(200);
    // 167 × 0.0061 = 1.0187 -> 1.02 EUR
    expect(res.body).toMatchObject({ exchangeRate: '0.0061', accountingCurrency: 'EUR', vatTotalAccountingCents: 102 });
    const cii = (await get(`/api/invoices/${made.id}/einvoice/factur-x.xml`)).text;
    expect(await xsdErrors(cii)).toEqual([]);
    expect(en16931Violations(cii)).toEqual([]);
    expect(cii).toContain('<ram:LineTotalAmount>500</ram:LineTotalAmount>');
    expect(cii).toContain('<ram:ChargeAmount>333</ram:ChargeAmount>');
    expect(cii).toContain('<ram:GrandTotalAmount>1000</ram:GrandTotalAmount>');
    expect(cii).toContain('<ram:TaxTotalAmount currencyID="EUR">1.02</ram:TaxTotalAmount>');
    const ubl = (await get(`/api/invoices/${made.id}/einvoice/ubl.xml`)).text;
    expect(ubl).toContain('<cbc:PayableAmount currencyID="JPY">1000</cbc:PayableAmount>');
    const texts = await pdfTexts((await binary(`/api/invoices/${made.id}/pdf`)).body as Buffer);
    expect(texts).toEqual(expect.arrayContaining(['1 000 JPY', '500 JPY']));
  });

  it('refuses an unknown currency, one with 3 decimals, a missing or misplaced rate, and a bad rate', async () => {
    const post = (body: object) =>
      stack.http
        .post('/api/invoices')
        .set(org.auth)
        .send({ customerId, lines: [line()], ...body });
    expectProblem(await post({ currency: 'ZZZ' }), 400, 'unknown_currency');
    expectProblem(await post({ currency: 'usd' }), 400, 'validation_failed');
    expectProblem(await post({ currency: 'KWD' }), 400, 'currency_not_supported');
    expectProblem(await post({ currency: 'USD', exchangeRate: '0' }), 400, 'validation_failed');
    expectProblem(await post({ currency: 'USD', exchangeRate: 1.08 }), 400, 'validation_failed');
    expectProblem(await post({ exchangeRate: '1.08' }), 400, 'exchange_rate_not_applicable');

    const usd = await draft(stack, org, customerId, { currency: 'USD' });
    const missing = await issue(usd.id);
    expectProblem(missing, 400, 'exchange_rate_required');
    expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'exchangeRate' })]);
    expectProblem(await issue(usd.id, '-1'), 400, 'validation_failed');
    expectProblem(await issue(usd.id, 'abc'), 400, 'validation_failed');
    // The body is optional, but when sent it is JSON.
    const asText = stack.http.post(`/api/invoices/${usd.id}/issue`).set(org.auth).set('Content-Type', 'text/plain');
    expectProblem(await asText.send('exchangeRate=1.08'), 415, 'unsupported_media_type');
    // Nothing was issued: still a draft without a number.
    expect((await get(`/api/invoices/${usd.id}`)).body).toMatchObject({ status: 'draft', number: null });

    const eur = await draft(stack, org, customerId);
    expect(eur).toMatchObject({ currency: 'EUR' });
    expectProblem(await issue(eur.id, '1.1'), 400, 'exchange_rate_not_applicable');
    expect((await issue(eur.id)).body).toMatchObject({
      status: 'issued',
      exchangeRate: null,
      accountingCurrency: 'EUR',
    });

    const settings = await stack.http.put('/api/invoices/settings').set(org.auth).send({ accountingCurrency: 'XYZ' });
    expectProblem(settings, 400, 'unknown_currency');
    // Documents are issued in EUR: the accounting currency stays; the same one again is no change.
    const moved = await stack.http.put('/api/invoices/settings').set(org.auth).send({ accountingCurrency: 'CHF' });
    expectProblem(moved, 409, 'accounting_currency_in_use');
    const same = await stack.http.put('/api/invoices/settings').set(org.auth).send({ accountingCurrency: 'EUR' });
    expect(same.status).toBe(200);
  });

  it('writes a quote in a currency (the accounting one by default), refusing one with 3 decimals', async () => {
    const quote = await stack.http
      .post('/api/quotes')
      .set(org.auth)
      .send({ customerId, currency: 'JPY', lines: [line({ quantity: 1.5, unitPriceCents: 333 })] });
    expect(quote.status).toBe(201);
    expect(quote.body).toMatchObject({ currency: 'JPY', grandTotalCents: 600 });
    const plain = await stack.http
      .post('/api/quotes')
      .set(org.auth)
      .send({ customerId, lines: [line()] });
    expect(plain.body).toMatchObject({ currency: 'EUR' });
    expectProblem(
      await stack.http
        .post('/api/quotes')
        .set(org.auth)
        .send({ customerId, currency: 'BHD', lines: [line()] }),
      400,
      'currency_not_supported',
    );
  });

  it('keeps the rate with the issued invoice: the database refuses to change it, its credit note takes it', async () => {
    const made = await draft(stack, org, customerId, { currency: 'USD', exchangeRate: '0.9' });
    expect((await issue(made.id)).status).toBe(200);
    const em = stack.services.orm.em.getConnection();
    await expect(em.execute(`update inv_invoices set exchange_rate = 1.5 where id = ?`, [made.id])).rejects.toThrow(
      /cannot be changed/,
    );
    await expect(
      em.execute(`update inv_invoices set accounting_currency = 'USD', exchange_rate = null where id = ?`, [made.id]),
    ).rejects.toThrow(/cannot be changed|inv_invoices_exchange_check/);
    // A draft cannot have a rate of zero or below either (the check).
    const other = await draft(stack, org, customerId, { currency: 'USD' });
    await expect(em.execute(`update inv_invoices set exchange_rate = 0 where id = ?`, [other.id])).rejects.toThrow(
      /inv_invoices_exchange_check/,
    );
    expectProblem(
      await stack.http
        .put(`/api/invoices/${made.id}`)
        .set(org.auth)
        .send({ customerId, currency: 'USD', exchangeRate: '2', lines: [line()] }),
      409,
      'invoice_not_draft',
    );
    expect((await get(`/api/invoices/${made.id}`)).body).toMatchObject({ exchangeRate: '0.9' });

    const credit = await stack.http
      .post(`/api/invoices/${made.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Erreur' });
    expect(credit.status).toBe(201);
    expect(credit.body).toMatchObject({ currency: 'USD', exchangeRate: '0.9', accountingCurrency: 'EUR' });
  });

  it('journals foreign-currency invoices and payments in EUR, the original amounts in Montantdevise/Idevise', async () => {
    const other = await invoicingOrg(stack);
    const buyer = (await customerOf(stack, other)).id;
    const made = await stack.http
      .post('/api/invoices')
      .set(other.auth)
      .send({ customerId: buyer, currency: 'USD', exchangeRate: '0.9215', lines: [line({ unitPriceCents: 12_345 })] });
    expect(made.status).toBe(201);
    const inv = await stack.http.post(`/api/invoices/${made.body.id}/issue`).set(other.auth);
    expect(inv.status).toBe(200);
    // 246.90 + 49.38 = 296.28 USD; paid in two parts
    for (const amountCents of [10_001, 19_627])
      expect(
        (await stack.http.post(`/api/invoices/${inv.body.id}/pay`).set(other.auth).send({ amountCents })).status,
      ).toBe(200);
    const year = String(inv.body.issueDate).slice(0, 4);
    const res = await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(other.auth).buffer(true);
    expect(res.status).toBe(200);
    expect(fecViolations(res.text)).toEqual([]);
    const rows = rowsOf(res.text);
    expect(rows.map((r) => [r.JournalCode, r.CompteNum, r.Debit, r.Credit, r.Montantdevise, r.Idevise])).toEqual([
      // 296.28 × 0.9215 = 273.02; VAT 49.38 -> 45.50; revenue 273.02 − 45.50 = 227.52
      ['VE', '411000', '273,02', '0,00', '296,28', 'USD'],
      ['VE', '706000', '0,00', '227,52', '246,90', 'USD'],
      ['VE', '44571200', '0,00', '45,50', '49,38', 'USD'],
      // 100.01 -> 92.16; then 296.28 -> 273.02 less 92.16 = 180.86
      ['BQ', '512000', '92,16', '0,00', '100,01', 'USD'],
      ['BQ', '411000', '0,00', '92,16', '100,01', 'USD'],
      ['BQ', '512000', '180,86', '0,00', '196,27', 'USD'],
      ['BQ', '411000', '0,00', '180,86', '196,27', 'USD'],
    ]);
    // Settled: its 411 lines are lettered and add up to zero in EUR.
    const lettered = rows.filter((r) => r.CompteNum === '411000');
    expect(new Set(lettered.map((r) => r.EcritureLet)).size).toBe(1);
    expect(lettered[0]!.EcritureLet).not.toBe('');
    const cents = (a: string) => Number(a.replace(',', ''));
    expect(lettered.reduce((s, r) => s + cents(r.Debit) - cents(r.Credit), 0)).toBe(0);
    const day = String(inv.body.issueDate);
    const csv = await stack.http
      .get(`/api/invoices/accounting/invoices.csv?from=${day}&to=${day}`)
      .set(other.auth)
      .buffer(true);
    expect(csv.text.trim().split('\n')[1]).toMatch(/,USD,24690,4938,29628,29628,0,,EUR,0\.9215$/);
  });
});
