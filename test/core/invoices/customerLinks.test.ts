import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { sendPaymentReminders } from '../../../domain/core/invoices/reminders/sendPaymentReminders';
import { addDays } from '../../../lib/calendar';
import { mailsTo } from '../../support/identity';
import type { Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, draft, invoicingOrg, issued, line } from './support';

describe('invoice customer link, reminder lists, deleting a draft quote', () => {
  let stack: TestStack;
  let org: Account;
  let other: Account;
  let customerId: string;
  let customerEmail: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    other = await invoicingOrg(stack);
    const customer = await customerOf(stack, org, { name: 'Lien Client SAS' });
    customerId = customer.id;
    customerEmail = customer.primaryEmail!;
  });
  afterAll(() => stack.close());

  it('mails an issued invoice with a signed link that shows it and its PDF, without an organisation id', async () => {
    const invoice = await issued(stack, org, customerId);
    const sent = await stack.http.post(`/api/invoices/${invoice.id}/send`).set(org.auth);
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ invoiceId: invoice.id, to: customerEmail.toLowerCase() });
    const link = new URL(sent.body.customerLink as string);
    expect(link.pathname).toBe('/api/public/invoices');
    const token = link.searchParams.get('token')!;
    expect(token).not.toContain(org.tenantId);
    const [mail] = await mailsTo(stack, customerEmail, 'core_invoice');
    expect(mail.subject).toBe(`Facture ${invoice.number} - Atelier Dupont SAS`);
    expect(mail.text).toContain(`/api/public/invoices?token=${encodeURIComponent(token)}`);
    expect(mail.text).toContain('/api/public/invoices/pdf?token=');

    const read = await stack.http.get('/api/public/invoices').query({ token });
    expect(read.status).toBe(200);
    expect(read.headers['cache-control']).toBe('no-store');
    expect(read.body).toMatchObject({
      number: invoice.number,
      kind: 'invoice',
      status: 'issued',
      grandTotalCents: 24_000,
      outstandingCents: 24_000,
      seller: expect.objectContaining({ name: 'Atelier Dupont SAS' }),
    });
    expect(JSON.stringify(read.body)).not.toContain(org.tenantId);
    const pdf = await stack.http
      .get(new URL(read.body.pdfUrl as string).pathname + new URL(read.body.pdfUrl as string).search)
      .buffer(true);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    expect(
      Buffer.from(pdf.body as Buffer)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const forged = `${invoice.id}.${'A'.repeat(43)}`;
    expect((await stack.http.get('/api/public/invoices').query({ token: forged })).status).toBe(404);
    expect((await stack.http.get('/api/public/invoices/pdf').query({ token: 'nope' })).status).toBe(404);
    // A quote's token does not open an invoice (another purpose, another key).
    expect((await stack.http.get('/api/public/invoices').query({ token: token.replace(/\..*/, '.x') })).status).toBe(
      404,
    );
  });

  it('refuses to mail a draft (409), hides other organisations (404) and refuses bad ids (400)', async () => {
    const made = await draft(stack, org, customerId);
    const res = await stack.http.post(`/api/invoices/${made.id}/send`).set(org.auth);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('invoice_not_issued');
    const invoice = await issued(stack, org, customerId);
    expect((await stack.http.post(`/api/invoices/${invoice.id}/send`).set(other.auth)).status).toBe(404);
    expect((await stack.http.get(`/api/invoices/${invoice.id}/reminders`).set(other.auth)).status).toBe(404);
    expect((await stack.http.post('/api/invoices/not-a-uuid/send').set(org.auth)).status).toBe(400);
    expect((await stack.http.get('/api/invoices/accounting/reminders?limit=0').set(org.auth)).status).toBe(400);
  });

  it('lists the reminders planned and mailed for an invoice, and those of the organisation', async () => {
    const today = invoiceToday();
    const customer = await customerOf(stack, org);
    const invoice = await issued(stack, org, customer.id, { dueDate: addDays(today, 3) });
    const before = await stack.http.get(`/api/invoices/${invoice.id}/reminders`).set(org.auth);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      invoiceId: invoice.id,
      enabled: true,
      sent: [],
      planned: [-3, 0, 7, 15].map((o) => ({ offsetDays: o, on: addDays(today, 3 + o) })),
    });
    await sendPaymentReminders(stack.services);
    const after = await stack.http.get(`/api/invoices/${invoice.id}/reminders`).set(org.auth);
    expect(after.body.sent).toEqual([
      expect.objectContaining({
        invoiceId: invoice.id,
        offsetDays: -3,
        outstandingCents: 24_000,
        mailId: expect.any(String),
      }),
    ]);
    expect(after.body.planned.map((p: { offsetDays: number }) => p.offsetDays)).toEqual([0, 7, 15]);
    const org_ = await stack.http.get('/api/invoices/accounting/reminders').set(org.auth);
    expect(org_.status).toBe(200);
    expect(org_.body.items.map((r: { invoiceId: string }) => r.invoiceId)).toContain(invoice.id);
    const others = await stack.http.get('/api/invoices/accounting/reminders').set(other.auth);
    expect(others.body.items).toEqual([]);

    expect((await stack.http.post(`/api/invoices/${invoice.id}/pay`).set(org.auth).send({})).status).toBe(200);
    const paid = await stack.http.get(`/api/invoices/${invoice.id}/reminders`).set(org.auth);
    expect(paid.body.planned).toEqual([]);
  });

  it('deletes a draft quote; a sent one answers 409 and another organisation 404', async () => {
    const make = async () => {
      const res = await stack.http
        .post('/api/quotes')
        .set(org.auth)
        .send({ customerId, lines: [line()] });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const draftId = await make();
    expect((await stack.http.delete(`/api/quotes/${draftId}`).set(other.auth)).status).toBe(404);
    expect((await stack.http.delete(`/api/quotes/${draftId}`).set(org.auth)).status).toBe(204);
    expect((await stack.http.get(`/api/quotes/${draftId}`).set(org.auth)).status).toBe(404);
    const sentId = await make();
    expect((await stack.http.post(`/api/quotes/${sentId}/send`).set(org.auth)).status).toBe(200);
    const refused = await stack.http.delete(`/api/quotes/${sentId}`).set(org.auth);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('quote_not_draft');
  });
});
