import iconv from 'iconv-lite';
import { fecViolations } from '../../../domain/core/invoices/accounting/fecCheck';
import { FEC_COLUMNS } from '../../../domain/core/invoices/accounting/fec';
import { expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import type { Account } from '../../support/factories';
import { customerOf, invoicingOrg, issued, line } from './support';

const text = (res: { text?: string; body: unknown }) => res.text ?? String(res.body);
const rowsOf = (fec: string, sep = '\t') =>
  fec
    .split('\r\n')
    .filter(Boolean)
    .slice(1)
    .map((l) => Object.fromEntries(l.split(sep).map((v, i) => [FEC_COLUMNS[i], v])) as Record<string, string>);

describe('accountant exports: FEC and CSV of invoices and payments', () => {
  let stack: TestStack;
  let org: Account;
  const year = new Date().getUTCFullYear();
  let paidNumber: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    const customer = await customerOf(stack, org, { name: '=HYPERLINK("http://x")' });
    const paid = await issued(stack, org, customer.id, {
      lines: [line(), line({ vatRate: 5.5, unitPriceCents: 1999 })],
    });
    paidNumber = paid.number;
    expect(
      (await stack.http.post(`/api/invoices/${paid.id}/pay`).set(org.auth).send({ amountCents: 10_000 })).status,
    ).toBe(200);
    expect(
      (await stack.http.post(`/api/invoices/${paid.id}/pay`).set(org.auth).send({ reference: 'VIR 2' })).status,
    ).toBe(200);
    const credited = await issued(stack, org, customer.id);
    expect(
      (await stack.http.post(`/api/invoices/${credited.id}/credit-note`).set(org.auth).send({ reason: 'Erreur' }))
        .status,
    ).toBe(201);
    await issued(stack, org, customer.id); // open
  });
  afterAll(() => stack.close());

  it('answers the FEC of the year: named SIRENFECYYYYMMDD.txt, complying with the column rules', async () => {
    const res = await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(org.auth).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="732829320FEC${year}1231.txt"`);
    const fec = text(res);
    expect(fecViolations(fec)).toEqual([]);
    const rows = rowsOf(fec);
    // 3 invoices + 1 credit note in VE, 2 payments in BQ.
    expect(new Set(rows.map((r) => r.EcritureNum)).size).toBe(6);
    expect(rows.filter((r) => r.JournalCode === 'BQ' && r.CompteNum === '512000')).toHaveLength(2);
    const letter = paidNumber.replace(/[^0-9A-Za-z]/g, '');
    const lettered = rows.filter((r) => r.EcritureLet === letter);
    expect(lettered.map((r) => r.CompteNum)).toEqual(['411000', '411000', '411000']);
    const sum = lettered.reduce((s, r) => s + Number(r.Debit.replace(',', '')) - Number(r.Credit.replace(',', '')), 0);
    expect(sum).toBe(0);
    // The open invoice is not lettered; the credited one is, with its credit note.
    expect(rows.filter((r) => r.CompteNum === '411000' && r.EcritureLet === '')).toHaveLength(1);
    const pipe = await stack.http
      .get(`/api/invoices/accounting/fec?year=${year}&separator=pipe`)
      .set(org.auth)
      .buffer(true);
    expect(fecViolations(text(pipe), 'pipe')).toEqual([]);
    const empty = await stack.http
      .get(`/api/invoices/accounting/fec?year=${year - 1}`)
      .set(org.auth)
      .buffer(true);
    expect(text(empty)).toBe(`${FEC_COLUMNS.join('\t')}\r\n`);
  });

  it('uses the configured accounts, and refuses bad settings and queries', async () => {
    const put = await stack.http
      .put('/api/invoices/accounting/settings')
      .set(org.auth)
      .send({ revenueAccount: '706100', vatAccounts: { '2000': '4457120' } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      revenueAccount: '706100',
      customersAccount: '411000',
      reminderOffsets: [-3, 0, 7, 15],
    });
    const rows = rowsOf(
      text(await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(org.auth).buffer(true)),
    );
    expect(rows.some((r) => r.CompteNum === '706100')).toBe(true);
    expect(rows.some((r) => r.CompteNum === '4457120')).toBe(true);
    expect(rows.some((r) => r.CompteNum === '44571055')).toBe(false);
    expectProblem(
      await stack.http
        .put('/api/invoices/accounting/settings')
        .set(org.auth)
        .send({ reminderOffsets: [7, 0] }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http
        .put('/api/invoices/accounting/settings')
        .set(org.auth)
        .send({ vatAccounts: { x: '445' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http.get('/api/invoices/accounting/fec?year=abc').set(org.auth),
      400,
      'validation_failed',
    );
    expectProblem(
      await stack.http.get('/api/invoices/accounting/fec?year=2026&separator=comma').set(org.auth),
      400,
      'validation_failed',
    );
    // Another organisation's exports show none of this one's entries.
    const other = await invoicingOrg(stack);
    const theirs = await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(other.auth).buffer(true);
    expect(text(theirs)).toBe(`${FEC_COLUMNS.join('\t')}\r\n`);
    const theirCsv = await stack.http
      .get(`/api/invoices/accounting/invoices.csv?from=${year}-01-01&to=${year}-12-31`)
      .set(other.auth)
      .buffer(true);
    expect(text(theirCsv).trim().split('\n')).toHaveLength(1);
    const noSiren = await invoicingOrg(stack, { siren: null, vatNumber: null });
    expectProblem(
      await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(noSiren.auth),
      409,
      'business_siren_missing',
    );
  });

  it('exports the invoices and payments of a period as CSV, formulas neutralised', async () => {
    const from = `${year}-01-01`;
    const to = `${year}-12-31`;
    const inv = await stack.http
      .get(`/api/invoices/accounting/invoices.csv?from=${from}&to=${to}`)
      .set(org.auth)
      .buffer(true);
    expect(inv.status).toBe(200);
    const lines = text(inv).trim().split('\n');
    expect(lines[0]).toBe(
      'id,number,kind,status,issueDate,dueDate,customerId,customerName,currency,taxExclusiveCents,vatTotalCents,grandTotalCents,paidCents,creditedCents,creditedInvoiceNumber,accountingCurrency,exchangeRate',
    );
    expect(lines).toHaveLength(5);
    expect(lines.slice(1).every((l) => l.includes(`"'=HYPERLINK(""http://x"")"`))).toBe(true);
    const pay = await stack.http
      .get(`/api/invoices/accounting/payments.csv?from=${from}&to=${to}`)
      .set(org.auth)
      .buffer(true);
    const paymentLines = text(pay).trim().split('\n');
    expect(paymentLines).toHaveLength(3);
    expect(paymentLines[1]).toContain(paidNumber);
    expectProblem(
      await stack.http.get(`/api/invoices/accounting/payments.csv?from=${to}&to=${from}`).set(org.auth),
      400,
      'validation_failed',
    );
  });

  it('writes the FEC in ISO-8859-15 on request: one byte a character, what Latin-9 lacks transliterated', async () => {
    const latin = await invoicingOrg(stack);
    const name = 'Zoë “Łódź” – Œuvres 😀 Ｓｈｏｐ';
    const customer = await customerOf(stack, latin, { name });
    await issued(stack, latin, customer.id, { lines: [line({ description: 'Crème brûlée €' })] });
    const bytesOf = (query: string) =>
      stack.http
        .get(`/api/invoices/accounting/fec?year=${year}${query}`)
        .set(latin.auth)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    const utf8 = await bytesOf('');
    expect(utf8.headers['content-type']).toBe('text/plain; charset=utf-8');
    const latin9 = await bytesOf('&encoding=iso-8859-15&separator=pipe');
    expect(latin9.status).toBe(200);
    expect(latin9.headers['content-type']).toBe('text/plain; charset=iso-8859-15');
    expect(latin9.headers['content-disposition']).toBe(`attachment; filename="732829320FEC${year}1231.txt"`);
    const utf8Text = (utf8.body as Buffer).toString('utf8');
    const latin9Bytes = latin9.body as Buffer;
    const latin9Text = iconv.decode(latin9Bytes, 'iso-8859-15');
    expect(fecViolations(utf8Text)).toEqual([]);
    expect(fecViolations(latin9Text, 'pipe')).toEqual([]);
    // The same lines: only the customer's name differs, spelled in Latin-9 (no byte sequence wider than one).
    const spelled = 'Zoë "Lódz" - Œuvres ? Shop';
    expect(rowsOf(latin9Text, '|')).toEqual(
      rowsOf(utf8Text).map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v.replace(name, spelled)]))),
    );
    expect(rowsOf(latin9Text, '|').filter((r) => r.CompAuxLib === spelled)).toHaveLength(1);
    expect(latin9Bytes.length).toBe(latin9Text.length);
    expect(latin9Bytes.includes(Buffer.from([0x5a, 0x6f, 0xeb]))).toBe(true); // "Zoë": ë is 0xEB
    expectProblem(
      await stack.http.get(`/api/invoices/accounting/fec?year=${year}&encoding=latin1`).set(latin.auth),
      400,
      'validation_failed',
    );
  });

  it('balances every entry to the cent, and every lettered group, when line and breakdown rounding differ', async () => {
    // Per line, 20 % of 33.33 is 6.67 and 5.5 % is 1.83; per breakdown (the rule) 3 × 33.33 gives 20.00 and 5.50.
    // 1.5 × 33.33 = 49.995 rounds to 50.00 on its line.
    const lines = [
      ...[1, 1, 1].map(() => line({ quantity: 1, unitPriceCents: 3333, vatRate: 20 })),
      ...[1, 1, 1].map(() => line({ quantity: 1, unitPriceCents: 3333, vatRate: 5.5 })),
      line({ quantity: 1.5, unitPriceCents: 3333, vatRate: 10 }),
    ];
    const pair = [lines[0], lines[3]];
    // At 0.8537 USD the settlements converted one by one would miss the invoices' converted totals by cents.
    for (const terms of [{}, { currency: 'USD', exchangeRate: '0.8537' }]) {
      const books = await invoicingOrg(stack);
      const customer = await customerOf(stack, books);
      const doc = await issued(stack, books, customer.id, { lines, ...terms });
      expect(doc).toMatchObject({ taxExclusiveCents: 24_998, vatTotalCents: 3050, grandTotalCents: 28_048 });
      // Three partial credit notes (one line of each of two rates each), then the 10 % line: credited in full.
      for (const credited of [pair, pair, pair, [lines[6]]]) {
        const res = await stack.http
          .post(`/api/invoices/${doc.id}/credit-note`)
          .set(books.auth)
          .send({ reason: 'Geste commercial', lines: credited });
        expect(res.status).toBe(201);
      }
      // A second invoice credited in part, then paid the rest in two parts of odd cents.
      const paid = await issued(stack, books, customer.id, { lines, ...terms });
      expect(
        (
          await stack.http
            .post(`/api/invoices/${paid.id}/credit-note`)
            .set(books.auth)
            .send({ reason: 'Remise', lines: pair })
        ).status,
      ).toBe(201);
      for (const amountCents of [10_001, 10_531])
        expect(
          (await stack.http.post(`/api/invoices/${paid.id}/pay`).set(books.auth).send({ amountCents })).status,
        ).toBe(200);
      const fec = text(await stack.http.get(`/api/invoices/accounting/fec?year=${year}`).set(books.auth).buffer(true));
      expect(fecViolations(fec)).toEqual([]);
      const rows = rowsOf(fec);
      const signed = (r: Record<string, string>) =>
        Number(r.Debit.replace(',', '')) - Number(r.Credit.replace(',', ''));
      const sums = (key: 'EcritureNum' | 'EcritureLet') => {
        const by = new Map<string, number>();
        for (const r of rows.filter((r) => r[key] !== ''))
          if (key === 'EcritureNum' || r.CompteNum === '411000') by.set(r[key], (by.get(r[key]) ?? 0) + signed(r));
        return by;
      };
      // 2 invoices, 5 credit notes, 2 payments.
      expect(sums('EcritureNum').size).toBe(9);
      expect([...sums('EcritureNum').values()].every((v) => v === 0)).toBe(true);
      expect(sums('EcritureLet').size).toBe(2);
      expect({ terms, lettered: Object.fromEntries(sums('EcritureLet')) }).toEqual({
        terms,
        lettered: Object.fromEntries([...sums('EcritureLet').keys()].map((k) => [k, 0])),
      });
      // The VAT collected per rate is what the breakdowns say, credit notes deducted: nothing left of the first invoice.
      const vat = (account: string) =>
        rows.filter((r) => r.CompteNum === account).reduce((sum, r) => sum - signed(r), 0);
      if (!('currency' in terms))
        expect([vat('44571200'), vat('44571055'), vat('44571100')]).toEqual([2000 - 667, 550 - 183, 500]);
    }
  });
});
