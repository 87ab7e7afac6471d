import { tenantContext } from '../../../domain/context';
import { readTimeline } from '../../../domain/core/crm/timeline';
import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { sendPaymentReminders } from '../../../domain/core/invoices/reminders/sendPaymentReminders';
import { InvoicePayment } from '../../../entities/core/invoice';
import { addDays } from '../../../lib/calendar';
import { deliver, processed, WEBHOOK_SECRET } from '../../support/billing';
import type { Account } from '../../support/factories';
import { FakeStripe, stripeEvent } from '../../support/fakeStripe';
import { mailsTo } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, draft, invoicingOrg, issued } from './support';

/** Hosted payment links of invoices (Stripe Checkout, mode payment) against the local Stripe stand-in. */
describe('invoice payment link', () => {
  let stack: TestStack;
  let fake: FakeStripe;
  let org: Account;
  let disabled: Account;
  let customerId: string;
  let customerEmail: string;
  beforeAll(async () => {
    fake = await FakeStripe.start();
    stack = await startStack({
      workers: ['stripe-events'],
      env: { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url },
    });
    [org, disabled] = await Promise.all([invoicingOrg(stack), invoicingOrg(stack)]);
    const enabled = await stack.http
      .put('/api/invoices/accounting/settings')
      .set(org.auth)
      .send({ onlinePaymentEnabled: true });
    expect(enabled.status).toBe(200);
    expect(enabled.body.onlinePaymentEnabled).toBe(true);
    const customer = await customerOf(stack, org, { name: 'Paiement Client SAS' });
    customerId = customer.id;
    customerEmail = customer.primaryEmail!;
  });
  afterAll(async () => {
    await stack?.close();
    await fake?.close();
  });

  const openLink = (who: Account, invoiceId: string) =>
    stack.http.post(`/api/invoices/${invoiceId}/payment-link`).set(who.auth);
  /** The customer link's token of an invoice, as mailed. */
  const tokenOf = async (invoiceId: string) => {
    const sent = await stack.http.post(`/api/invoices/${invoiceId}/send`).set(org.auth);
    expect(sent.status).toBe(200);
    return new URL(sent.body.customerLink as string).searchParams.get('token')!;
  };
  /** The session id of a hosted page's address. */
  const sessionOf = (url: string) => url.split('/').at(-1)!;
  const invoice = (id: string) => stack.http.get(`/api/invoices/${id}`).set(org.auth);

  it('opens one hosted page for what is outstanding, from staff and from the customer link, reused', async () => {
    const inv = await issued(stack, org, customerId);
    const before = fake.callsTo('POST', '/v1/checkout/sessions').length;
    const res = await openLink(org, inv.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.test\//),
      amountCents: 24_000,
      currency: 'EUR',
      expiresAt: expect.any(String),
    });
    const calls = fake.callsTo('POST', '/v1/checkout/sessions');
    expect(calls).toHaveLength(before + 1);
    const call = calls.at(-1)!;
    expect(call.body).toMatchObject({
      mode: 'payment',
      line_items: [{ quantity: '1', price_data: { currency: 'eur', unit_amount: '24000' } }],
      metadata: { purpose: 'invoice_payment', invoiceId: inv.id, invoiceNumber: inv.number },
      customer_email: customerEmail.toLowerCase(),
    });
    expect(call.idempotencyKey).toBe(`invoice-payment.${inv.id}.0.24000`);
    expect(JSON.stringify(call.body)).not.toContain(org.tenantId);
    expect(String(call.body.success_url)).toContain('/api/public/invoices?token=');

    // Again, by staff and by the customer: the same page, Stripe not asked again.
    expect((await openLink(org, inv.id)).body.url).toBe(res.body.url);
    const token = await tokenOf(inv.id);
    const view = await stack.http.get('/api/public/invoices').query({ token });
    expect(view.status).toBe(200);
    expect(view.body.payUrl).toContain(`/api/public/invoices/pay?token=${encodeURIComponent(token)}`);
    const pay = await stack.http.post('/api/public/invoices/pay').query({ token });
    expect(pay.status).toBe(200);
    expect(pay.body.url).toBe(res.body.url);
    expect(JSON.stringify(pay.body)).not.toContain(org.tenantId);
    const redirect = await stack.http.get('/api/public/invoices/pay').query({ token }).redirects(0);
    expect(redirect.status).toBe(303);
    expect(redirect.headers.location).toBe(res.body.url);
    expect(fake.callsTo('POST', '/v1/checkout/sessions')).toHaveLength(before + 1);

    // Two openings at once of another invoice: one session (one idempotency key), stored once.
    const other = await issued(stack, org, customerId);
    const [a, b] = await Promise.all([openLink(org, other.id), openLink(org, other.id)]);
    expect(a.body.url).toBe(b.body.url);

    // After a payment by hand, a new page for what is left.
    expect(
      (await stack.http.post(`/api/invoices/${inv.id}/pay`).set(org.auth).send({ amountCents: 4_000 })).status,
    ).toBe(200);
    const rest = await openLink(org, inv.id);
    expect(rest.body).toMatchObject({ amountCents: 20_000 });
    expect(rest.body.url).not.toBe(res.body.url);
  });

  it("charges in the invoice's currency with Stripe's minor units, and records the payment in ISO's", async () => {
    // JPY: zero-decimal at Stripe as in ISO; ISK: ISO 0 decimals, Stripe two (×100); 2 × 1 000 + 20 % = 2 400.
    for (const [currency, stripeAmount] of [
      ['JPY', '2400'],
      ['ISK', '240000'],
    ] as const) {
      const made = await draft(stack, org, customerId, {
        currency,
        exchangeRate: '0.0061',
        lines: [{ description: 'Conseil', quantity: 2, unitPriceCents: 1_000, vatRate: 20, vatCategory: 'S' }],
      });
      expect((await stack.http.post(`/api/invoices/${made.id}/issue`).set(org.auth)).status).toBe(200);
      const link = await openLink(org, made.id);
      expect(link.body).toMatchObject({ amountCents: 2_400, currency });
      expect(fake.callsTo('POST', '/v1/checkout/sessions').at(-1)!.body).toMatchObject({
        line_items: [{ price_data: { currency: currency.toLowerCase(), unit_amount: stripeAmount } }],
      });
      const session = fake.completePayment(sessionOf(link.body.url as string));
      const event = stripeEvent('checkout.session.completed', session);
      expect((await deliver(stack, event)).status).toBe(200);
      expect((await processed(stack, event.id as string)).outcome).toBe('applied');
      expect((await invoice(made.id)).body).toMatchObject({ status: 'paid', paidCents: 2_400 });
    }
  });

  it('records the payment of a completed checkout once: replayed, delivered twice at once, two events', async () => {
    const today = invoiceToday();
    const inv = await issued(stack, org, customerId, { dueDate: addDays(today, 3) });
    const link = await openLink(org, inv.id);
    const session = fake.completePayment(sessionOf(link.body.url as string));
    const completed = stripeEvent('checkout.session.completed', session);
    const again = stripeEvent('checkout.session.completed', session);
    const async = stripeEvent('checkout.session.async_payment_succeeded', session);
    const deliveries = await Promise.all([completed, completed, again, async].map((e) => deliver(stack, e)));
    expect(deliveries.map((d) => d.status)).toEqual([200, 200, 200, 200]);
    const rows = await Promise.all([completed, again, async].map((e) => processed(stack, e.id as string)));
    expect(rows.map((r) => r.outcome).sort()).toEqual(['applied', 'ignored', 'ignored']);
    expect(rows.find((r) => r.outcome === 'applied')!.tenantId).toBe(org.tenantId);
    // A replay of a processed event changes nothing.
    expect((await deliver(stack, completed)).body).toEqual({ received: true, duplicate: true });

    const paid = await invoice(inv.id);
    expect(paid.body).toMatchObject({ status: 'paid', paidCents: 24_000 });
    expect(paid.body.payments).toEqual([
      expect.objectContaining({ amountCents: 24_000, method: 'card', reference: session.payment_intent }),
    ]);
    const stored = await stack.services.orm.em
      .fork()
      .find(InvoicePayment, { providerReference: `stripe:${String(session.id)}` }, { filters: false });
    expect(stored).toHaveLength(1);

    // Paid: on the timeline as paid, no reminder planned, no page to pay any more, no payUrl.
    const ctx = tenantContext(stack.services, org.tenantId, org.user.id);
    const timeline = await readTimeline(ctx, customerId, { limit: 50, sources: ['invoice'] });
    expect(timeline.items.find((i) => i.id === inv.id)).toMatchObject({ type: 'paid' });
    const reminders = await stack.http.get(`/api/invoices/${inv.id}/reminders`).set(org.auth);
    expect(reminders.body.planned).toEqual([]);
    const refused = await openLink(org, inv.id);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('invoice_paid');
    const token = await tokenOf(inv.id);
    expect((await stack.http.get('/api/public/invoices').query({ token })).body.payUrl).toBeNull();
    const publicRefused = await stack.http.post('/api/public/invoices/pay').query({ token });
    expect(publicRefused.status).toBe(409);
    expect(publicRefused.body.code).toBe('invoice_paid');
  });

  it('leaves an unpaid session and billing checkouts alone; records the async payment when it succeeds', async () => {
    const inv = await issued(stack, org, customerId);
    const link = await openLink(org, inv.id);
    const id = sessionOf(link.body.url as string);
    const pending = stripeEvent('checkout.session.completed', { ...fake.sessions.get(id), status: 'complete' });
    expect((await deliver(stack, pending)).status).toBe(200);
    expect((await processed(stack, pending.id as string)).outcome).toBe('ignored');
    expect((await invoice(inv.id)).body.status).toBe('issued');
    const succeeded = stripeEvent('checkout.session.async_payment_succeeded', fake.completePayment(id));
    expect((await deliver(stack, succeeded)).status).toBe(200);
    expect((await processed(stack, succeeded.id as string)).outcome).toBe('applied');
    expect((await invoice(inv.id)).body).toMatchObject({ status: 'paid', paidCents: 24_000 });
    // A forged metadata naming no invoice of ours is ignored.
    const forged = stripeEvent('checkout.session.completed', {
      ...fake.sessions.get(id),
      id: 'cs_forged',
      metadata: { purpose: 'invoice_payment', invoiceId: 'not-an-id' },
    });
    expect((await deliver(stack, forged)).status).toBe(200);
    expect((await processed(stack, forged.id as string)).outcome).toBe('ignored');
  });

  it('refuses drafts, credit notes, credited invoices, organisations without online payment, and others', async () => {
    const made = await draft(stack, org, customerId);
    const onDraft = await openLink(org, made.id);
    expect(onDraft.status).toBe(409);
    expect(onDraft.body.code).toBe('invoice_not_issued');

    const inv = await issued(stack, org, customerId);
    const credit = await stack.http
      .post(`/api/invoices/${inv.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Annulation' });
    expect(credit.status).toBe(201);
    const onCredited = await openLink(org, inv.id);
    expect(onCredited.status).toBe(409);
    expect(onCredited.body.code).toBe('invoice_credited');
    const onCreditNote = await openLink(org, credit.body.id as string);
    expect(onCreditNote.status).toBe(409);
    expect(onCreditNote.body.code).toBe('credit_note_not_payable');

    const theirCustomer = await customerOf(stack, disabled);
    const theirs = await issued(stack, disabled, theirCustomer.id);
    const off = await openLink(disabled, theirs.id);
    expect(off.status).toBe(409);
    expect(off.body.code).toBe('online_payment_disabled');
    const sent = await stack.http.post(`/api/invoices/${theirs.id}/send`).set(disabled.auth);
    const token = new URL(sent.body.customerLink as string).searchParams.get('token')!;
    expect((await stack.http.get('/api/public/invoices').query({ token })).body.payUrl).toBeNull();
    expect((await stack.http.post('/api/public/invoices/pay').query({ token })).body.code).toBe(
      'online_payment_disabled',
    );

    const open = await issued(stack, org, customerId);
    expect((await openLink(disabled, open.id)).status).toBe(404);
    expect((await stack.http.post('/api/invoices/not-a-uuid/payment-link').set(org.auth)).status).toBe(400);
    const forged = `${open.id}.${'A'.repeat(43)}`;
    expect((await stack.http.post('/api/public/invoices/pay').query({ token: forged })).status).toBe(404);
    expect((await stack.http.get('/api/public/invoices/pay').query({ token: forged }).redirects(0)).status).toBe(404);
    expect((await stack.http.post('/api/public/invoices/pay')).status).toBe(400);
  });

  it('puts the payment link in the invoice mail and the reminder mail when online payment is on', async () => {
    const today = invoiceToday();
    const customer = await customerOf(stack, org);
    const inv = await issued(stack, org, customer.id, { dueDate: addDays(today, 3) });
    const theirCustomer = await customerOf(stack, disabled);
    const theirInvoice = await issued(stack, disabled, theirCustomer.id, { dueDate: addDays(today, 3) });
    for (const [who, id] of [
      [org, inv.id],
      [disabled, theirInvoice.id],
    ] as const)
      expect((await stack.http.post(`/api/invoices/${id}/send`).set(who.auth)).status).toBe(200);
    const [sent] = await mailsTo(stack, customer.primaryEmail!, 'core_invoice');
    expect(sent.text).toContain('Payer en ligne : ');
    expect(sent.text).toContain('/api/public/invoices/pay?token=');
    const [theirSent] = await mailsTo(stack, theirCustomer.primaryEmail!, 'core_invoice');
    expect(theirSent.text).not.toContain('Payer en ligne');
    await sendPaymentReminders(stack.services);
    const [mail] = await mailsTo(stack, customer.primaryEmail!, 'invoice_reminder');
    expect(mail.text).toContain('Payer en ligne : ');
    expect(mail.text).toContain('/api/public/invoices/pay?token=');
    expect(mail.text).not.toContain(org.tenantId);
    expect(mail.text).toContain(inv.number);
    const [theirs] = await mailsTo(stack, theirCustomer.primaryEmail!, 'invoice_reminder');
    expect(theirs.text).not.toContain('Payer en ligne');
  });
});
