import { addMember } from '../../support/factories';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, draft, invoicingOrg, issued, line } from './support';
import type { Account } from '../../support/factories';

describe('invoices: drafts, issue, gapless numbering, immutability', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false, env: { DATABASE_POOL_MAX: '10' } });
    org = await invoicingOrg(stack);
    customerId = (await customerOf(stack, org)).id;
  });
  afterAll(() => stack.close());

  it('creates, reads, replaces and deletes a draft with computed totals', async () => {
    const made = await draft(stack, org, customerId, {
      lines: [
        line({ quantity: 1.5, unitPriceCents: 3333 }),
        line({ vatRate: 5.5, unitPriceCents: 1999, discountPercent: 10 }),
      ],
      buyerReference: 'REF-1',
      buyer: { vatNumber: 'fr 44 732829320' },
    });
    expect(made).toMatchObject({
      kind: 'invoice',
      status: 'draft',
      number: null,
      customerId,
      taxExclusiveCents: 5000 + 3598,
      vatTotalCents: 1000 + 198,
      grandTotalCents: 9796,
      outstandingCents: 0,
      seller: null,
      buyer: null,
      buyerReference: 'REF-1',
      buyerDetails: { vatNumber: 'FR44732829320' },
    });
    expect(made.vatBreakdown).toEqual([
      { category: 'S', rate: 20, taxableCents: 5000, vatCents: 1000, exemptionReason: null, exemptionReasonCode: null },
      { category: 'S', rate: 5.5, taxableCents: 3598, vatCents: 198, exemptionReason: null, exemptionReasonCode: null },
    ]);
    expect((await stack.http.get(`/api/invoices/${made.id}`).set(org.auth)).body).toEqual(made);
    const put = await stack.http
      .put(`/api/invoices/${made.id}`)
      .set(org.auth)
      .send({ customerId, lines: [line({ quantity: 0.25 })] });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      grandTotalCents: 3000,
      buyerReference: null,
      lines: [expect.objectContaining({ quantity: 0.25, netCents: 2500 })],
    });
    expect((await stack.http.delete(`/api/invoices/${made.id}`).set(org.auth)).status).toBe(204);
    expect((await stack.http.get(`/api/invoices/${made.id}`).set(org.auth)).status).toBe(404);
  });

  it('answers 404 for an unknown or foreign customer', async () => {
    const other = await invoicingOrg(stack);
    const theirs = await customerOf(stack, other);
    for (const id of [theirs.id, '0190a8f0-0000-7000-8000-000000000000']) {
      const res = await stack.http
        .post('/api/invoices')
        .set(org.auth)
        .send({ customerId: id, lines: [line()] });
      expect(res.status).toBe(404);
    }
    const mine = await draft(stack, org, customerId);
    expect(
      (
        await stack.http
          .put(`/api/invoices/${mine.id}`)
          .set(org.auth)
          .send({ customerId: theirs.id, lines: [line()] })
      ).status,
    ).toBe(404);
    // A customer invoices refer to is not deleted (foreign key): its draft keeps it and still issues.
    const held = await customerOf(stack, org, { name: 'Held SARL' });
    const pending = await draft(stack, org, held.id);
    expectProblem(await stack.http.delete(`/api/customers/${held.id}`).set(org.auth), 409, 'customer_in_use');
    expect((await stack.http.post(`/api/invoices/${pending.id}/issue`).set(org.auth)).body).toMatchObject({
      status: 'issued',
      customerId: held.id,
      buyer: expect.objectContaining({ name: 'Held SARL' }),
    });
    await stack.http
      .delete(`/api/customers/${(await customerOf(stack, org, { name: 'Unused' })).id}`)
      .set(org.auth)
      .expect(204);
  });

  it('issues with the next number, seller and buyer details, due date and terms; then refuses edits', async () => {
    const inv = await issued(stack, org, customerId, { dueDate: undefined });
    expect(inv).toMatchObject({
      status: 'issued',
      number: expect.stringMatching(/^F-\d{4}-\d{5}$/),
      outstandingCents: inv.grandTotalCents,
      overdue: false,
    });
    expect(inv.seller).toMatchObject({
      name: 'Atelier Dupont SAS',
      legalId: '732829320',
      vatNumber: 'FR44732829320',
      iban: 'FR7630006000011234567890189',
      address: { country: 'FR' },
    });
    expect(inv.buyer).toMatchObject({ name: 'Client Martin SARL', address: { city: 'Lyon', country: 'FR' } });
    expect(inv.dueDate).toBe(
      new Date(Date.parse(`${inv.issueDate}T00:00:00Z`) + 30 * 86_400_000).toISOString().slice(0, 10),
    );
    expect(String(inv.paymentTerms)).toContain('40 €');
    for (const res of [
      await stack.http
        .put(`/api/invoices/${inv.id}`)
        .set(org.auth)
        .send({ customerId, lines: [line()] }),
      await stack.http.delete(`/api/invoices/${inv.id}`).set(org.auth),
      await stack.http.post(`/api/invoices/${inv.id}/issue`).set(org.auth),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('invoice_not_draft');
    }
  });

  it('gives 50 concurrent issues 50 consecutive numbers, no gap, no duplicate', async () => {
    const own = await invoicingOrg(stack);
    const customer = await customerOf(stack, own);
    const drafts = [];
    for (let i = 0; i < 50; i++) drafts.push(await draft(stack, own, customer.id));
    // They queue on the counter's row lock and on the pool: contention, not an outage, so none answers 503.
    const started = Date.now();
    const answers = await Promise.all(drafts.map((d) => stack.http.post(`/api/invoices/${d.id}/issue`).set(own.auth)));
    console.log(`50 concurrent issues: ${Date.now() - started} ms`);
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const numbers = answers.map((a) => Number(String(a.body.number).slice(-5))).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // Chronological: number order is issue order.
    const byNumber = [...answers].sort((a, b) => String(a.body.number).localeCompare(String(b.body.number)));
    const times = byNumber.map((a) => Date.parse(a.body.issuedAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  }, 120_000);

  it('refuses a direct SQL update or delete of an issued invoice, and a number that would leave a gap', async () => {
    const inv = await issued(stack, org, customerId);
    const sql = stack.services.orm.em.getConnection();
    await expect(sql.execute(`update inv_invoices set grand_total_cents = 1 where id = ?`, [inv.id])).rejects.toThrow(
      /cannot be changed/,
    );
    await expect(sql.execute(`update inv_invoices set lines = '[]' where id = ?`, [inv.id])).rejects.toThrow(
      /cannot be changed/,
    );
    await expect(
      sql.execute(`update inv_invoices set status = 'draft', number = null, issued_at = null where id = ?`, [inv.id]),
    ).rejects.toThrow(/cannot be changed/);
    await expect(sql.execute(`delete from inv_invoices where id = ?`, [inv.id])).rejects.toThrow(/cannot be deleted/);
    await expect(sql.execute(`update inv_payments set amount_cents = 1`)).resolves.toBeDefined();
    const d = await draft(stack, org, customerId);
    await expect(
      sql.execute(
        `update inv_invoices set status = 'issued', number = 'F-GAP', sequence_year = ?, sequence_no = 999, issue_date = now(), issued_at = now(), seller = '{}', buyer = '{}' where id = ?`,
        [Number(String(inv.issueDate).slice(0, 4)), d.id],
      ),
    ).rejects.toThrow(/gap/);
    const after = await stack.http.get(`/api/invoices/${inv.id}`).set(org.auth);
    expect(after.body.grandTotalCents).toBe(inv.grandTotalCents);
  });

  it('refuses to issue without the details EN 16931 needs', async () => {
    const bare = await invoicingOrg(stack, { vatNumber: null });
    const noAddress = await customerOf(stack, bare, { address: false });
    const d = await draft(stack, bare, noAddress.id, {
      lines: [line(), line({ vatRate: 0, vatCategory: 'AE' })],
      dueDate: '2000-01-01',
    });
    const res = await stack.http.post(`/api/invoices/${d.id}/issue`).set(bare.auth);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('invoice_incomplete');
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'buyer.address',
      'buyer.vatNumber',
      'dueDate',
      'seller.vatNumber',
    ]);
    expect((await stack.http.get(`/api/invoices/${d.id}`).set(bare.auth)).body).toMatchObject({
      status: 'draft',
      number: null,
    });
  });

  it('numbers with the configured prefix, and refuses inconsistent settings', async () => {
    const own = await invoicingOrg(stack);
    const customer = await customerOf(stack, own);
    expect((await stack.http.get('/api/invoices/settings').set(own.auth)).body).toMatchObject({
      invoicePrefix: 'F-{YYYY}-',
      yearlyReset: true,
      digits: 5,
    });
    const bad = await stack.http.put('/api/invoices/settings').set(own.auth).send({ invoicePrefix: 'INV-' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'invoicePrefix' })]);
    expect(
      (await stack.http.put('/api/invoices/settings').set(own.auth).send({ creditNotePrefix: 'F-{YYYY}-' })).status,
    ).toBe(400);
    const ok = await stack.http
      .put('/api/invoices/settings')
      .set(own.auth)
      .send({ invoicePrefix: 'INV-', yearlyReset: false, digits: 3, dueDays: 0 });
    expect(ok.status).toBe(200);
    const inv = await issued(stack, own, customer.id);
    expect(inv.number).toBe('INV-001');
    expect(inv.dueDate).toBe(inv.issueDate);
  });

  it('lists with filters and cursor pagination', async () => {
    const own = await invoicingOrg(stack);
    const a = await customerOf(stack, own);
    const b = await customerOf(stack, own, { name: 'Other' });
    const first = await issued(stack, own, a.id);
    const second = await draft(stack, own, b.id);
    const third = await issued(stack, own, b.id);
    const page = await stack.http.get('/api/invoices?limit=2').set(own.auth);
    expect(page.body.items.map((i: { id: string }) => i.id)).toEqual([third.id, second.id]);
    const next = await stack.http.get(`/api/invoices?limit=2&cursor=${page.body.nextCursor}`).set(own.auth);
    expect(next.body).toEqual({ items: [expect.objectContaining({ id: first.id })], nextCursor: null });
    expect(
      (await stack.http.get(`/api/invoices?customerId=${b.id}&status=issued`).set(own.auth)).body.items.map(
        (i: { id: string }) => i.id,
      ),
    ).toEqual([third.id]);
    expect((await stack.http.get('/api/invoices?overdue=true').set(own.auth)).body.items).toEqual([]);
  });

  it('refuses bad input on every route with field errors', async () => {
    const d = await draft(stack, org, customerId);
    const bodies = [
      {},
      { customerId: 'nope', lines: [] },
      {
        customerId,
        lines: [
          {
            description: '',
            quantity: 1.0001,
            unitPriceCents: -1,
            vatRate: 19.6,
            vatCategory: 'X',
            discountPercent: 101,
            extra: 1,
          },
        ],
      },
      { customerId, lines: [line()], dueDate: '2026-02-30' },
      { customerId, lines: [line()], buyer: { address: { line1: 'x', country: 'France' } } },
      // Characters XML 1.0 forbids would make the Factur-X document ill-formed.
      { customerId, lines: [line({ description: 'Conseil\u0001 fin' })] },
      {
        customerId,
        lines: [line()],
        note: 'Merci\u000b',
        buyerReference: 'REF\u001f',
        orderReference: '\uffff',
        paymentTerms: 'x\u0008',
        buyer: { legalId: '\u0002', address: { line1: 'a\u000c', city: 'b\u0007', country: 'FR' } },
      },
    ];
    for (const body of bodies) {
      expect((await stack.http.post('/api/invoices').set(org.auth).send(body)).status).toBe(400);
      expect((await stack.http.put(`/api/invoices/${d.id}`).set(org.auth).send(body)).status).toBe(400);
    }
    const fields = (await stack.http.post('/api/invoices').set(org.auth).send(bodies[2])).body.errors.map(
      (e: { field: string }) => e.field,
    );
    expect(fields).toEqual(
      expect.arrayContaining([
        'lines[0].extra',
        'lines[0].description',
        'lines[0].quantity',
        'lines[0].unitPriceCents',
        'lines[0].vatRate',
        'lines[0].vatCategory',
        'lines[0].discountPercent',
      ]),
    );
    const semantic = await stack.http
      .post('/api/invoices')
      .set(org.auth)
      .send({ customerId, lines: [line({ vatRate: 0 })] });
    expect(semantic.status).toBe(400);
    expect(semantic.body.errors).toEqual([expect.objectContaining({ field: 'lines[0].vatRate' })]);
    expect((await stack.http.get('/api/invoices/not-a-uuid').set(org.auth)).status).toBe(400);
    expect((await stack.http.get('/api/invoices?status=lost').set(org.auth)).status).toBe(400);
    expect((await stack.http.post(`/api/invoices/${d.id}/pay`).set(org.auth).send({ amountCents: 0 })).status).toBe(
      400,
    );
    expect((await stack.http.post(`/api/invoices/${d.id}/credit-note`).set(org.auth).send({ reason: '' })).status).toBe(
      400,
    );
    const xml = (await stack.http.post('/api/invoices').set(org.auth).send(bodies[6])).body.errors
      .map((e: { field: string }) => e.field)
      .sort();
    expect(xml).toEqual([
      'buyer.address.city',
      'buyer.address.line1',
      'buyer.legalId',
      'buyerReference',
      'note',
      'orderReference',
      'paymentTerms',
    ]);
    expectFieldErrors(await stack.http.post('/api/invoices').set(org.auth).send(bodies[5]), 'lines[0].description');
    expectFieldErrors(
      await stack.http.post(`/api/invoices/${d.id}/credit-note`).set(org.auth).send({ reason: 'Erreur\u0001' }),
      'reason',
    );
    expect((await stack.http.put('/api/invoices/settings').set(org.auth).send({ digits: 20 })).status).toBe(400);
  });

  it('keeps invoices to their organisation and their permissions', async () => {
    const inv = await issued(stack, org, customerId);
    const stranger = await invoicingOrg(stack);
    for (const res of [
      await stack.http.get(`/api/invoices/${inv.id}`).set(stranger.auth),
      await stack.http.post(`/api/invoices/${inv.id}/pay`).set(stranger.auth).send({}),
      await stack.http.get(`/api/invoices/${inv.id}/einvoice/factur-x.xml`).set(stranger.auth),
    ])
      expect(res.status).toBe(404);
    expect((await stack.http.get('/api/invoices').set(stranger.auth)).body.items).toEqual([]);
    const member = await addMember(stack, org, 'member');
    expect((await stack.http.get(`/api/invoices/${inv.id}`).set(member.auth)).status).toBe(200);
    const refused = await stack.http.post(`/api/invoices/${inv.id}/pay`).set(member.auth).send({});
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('permission_denied');
  });
});
