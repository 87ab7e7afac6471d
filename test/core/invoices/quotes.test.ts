import { Client } from 'pg';
import { tenantContext } from '../../../domain/context';
import { readTimeline } from '../../../domain/core/crm/timeline';
import '../../../domain/core/invoices/crmExtensions';
import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { MailMessage } from '../../../entities/platform/mail';
import { addDays } from '../../../lib/calendar';
import { makeDeal, makePipeline } from '../../support/crm';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, invoicingOrg, line } from './support';

type Body = { id: string } & Record<string, unknown>;

describe('quotes: draft, send, customer link, accept once, convert, timeline', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  let customerEmail: string;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    const customer = await customerOf(stack, org);
    customerId = customer.id;
    customerEmail = customer.primaryEmail!;
  });
  afterAll(() => stack.close());

  const post = (path: string, body: object = {}) => stack.http.post(path).set(org.auth).send(body);
  const draft = async (body: object = {}): Promise<Body> => {
    const res = await post('/api/quotes', { customerId, lines: [line()], ...body });
    expect(res.status).toBe(201);
    return res.body as Body;
  };
  const sent = async (body: object = {}): Promise<Body & { customerLink: string; number: string }> => {
    const made = await draft(body);
    const res = await post(`/api/quotes/${made.id}/send`);
    expect(res.status).toBe(200);
    return res.body as Body & { customerLink: string; number: string };
  };
  const tokenOf = (link: string) => decodeURIComponent(new URL(link).searchParams.get('token')!);
  const accept = (token: string, name = 'Jeanne Martin') =>
    stack.http.post('/api/public/quotes/accept').set('User-Agent', 'QuoteTest/1.0').send({ token, name });

  it('drafts with computed totals, patches while draft, sends with a number, a mail and a frozen body', async () => {
    const made = await draft({ note: 'Première version' });
    expect(made).toMatchObject({
      status: 'draft',
      number: null,
      taxExclusiveCents: 20_000,
      vatTotalCents: 4_000,
      grandTotalCents: 24_000,
      validUntil: addDays(invoiceToday(), 30),
      customerLink: null,
    });
    const patched = await stack.http
      .patch(`/api/quotes/${made.id}`)
      .set(org.auth)
      .send({ lines: [line({ quantity: 3 })] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ grandTotalCents: 36_000, note: 'Première version' });
    const past = await stack.http.patch(`/api/quotes/${made.id}`).set(org.auth).send({ validUntil: '2020-01-01' });
    expect(past.status).toBe(400);

    const res = await post(`/api/quotes/${made.id}/send`);
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('sent');
    expect(res.body.number).toMatch(new RegExp(`^D-${invoiceToday().slice(0, 4)}-\\d{5}$`));
    expect(res.body.customerLink).toContain('/api/public/quotes?token=');
    expect(res.body.customerLink).not.toContain(org.tenantId);
    const mail = await stack.services.orm.em.fork().findOne(MailMessage, { dedupeKey: `quote:${made.id}` });
    expect(mail).toMatchObject({ to: customerEmail, template: 'core_quote' });
    expect(mail!.text).toContain(res.body.customerLink);
    expect(mail!.text).toContain('/api/public/quotes/pdf?token=');

    expect((await post(`/api/quotes/${made.id}/send`)).body.code).toBe('quote_not_draft');
    const late = await stack.http.patch(`/api/quotes/${made.id}`).set(org.auth).send({ note: 'x' });
    expect([late.status, late.body.code]).toEqual([409, 'quote_not_draft']);
    // The database refuses a change of a sent quote by itself.
    await expect(
      stack.services.orm.em.fork().execute(`update inv_quotes set grand_total_cents = 1 where id = ?`, [made.id]),
    ).rejects.toThrow(/cannot be changed/);
    const pdf = await stack.http.get(`/api/quotes/${made.id}/pdf`).set(org.auth);
    expect([pdf.status, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
  });

  it('numbers quotes sent at once without gap or repeat', async () => {
    const drafts = await Promise.all([1, 2, 3, 4].map(() => draft()));
    const answers = await Promise.all(drafts.map((d) => post(`/api/quotes/${d.id}/send`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const numbers = answers.map((a) => Number(String(a.body.number).slice(-5))).sort((x, y) => x - y);
    expect(numbers).toEqual([numbers[0], numbers[0] + 1, numbers[0] + 2, numbers[0] + 3]);
  });

  it('shows the quote to its customer by the signed link and accepts it exactly once', async () => {
    const quote = await sent();
    const token = tokenOf(quote.customerLink);
    const read = await stack.http.get('/api/public/quotes').query({ token });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: 'sent', number: quote.number, grandTotalCents: 24_000 });
    expect(JSON.stringify(read.body)).not.toContain(org.tenantId);
    const pdf = await stack.http.get('/api/public/quotes/pdf').query({ token });
    expect([pdf.status, pdf.headers['content-type']]).toEqual([200, 'application/pdf']);
    const forged = `${quote.id}.${'A'.repeat(43)}`;
    expect((await stack.http.get('/api/public/quotes').query({ token: forged })).status).toBe(404);
    expect((await accept(forged)).status).toBe(404);

    const both = await Promise.all([accept(token, 'Jeanne Martin'), accept(token, 'Paul Martin')]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.status === 409)!.body.code).toBe('quote_already_answered');
    const winner = both.find((r) => r.status === 200)!.body as { answeredBy: string };
    const decline = await stack.http.post('/api/public/quotes/decline').send({ token, name: 'Late' });
    expect([decline.status, decline.body.code]).toEqual([409, 'quote_already_answered']);

    const detail = await stack.http.get(`/api/quotes/${quote.id}`).set(org.auth);
    expect(detail.body).toMatchObject({
      status: 'accepted',
      response: { answer: 'accepted', name: winner.answeredBy, userAgent: 'QuoteTest/1.0', reason: null },
    });
    expect(detail.body.response.ip).toEqual(expect.any(String));
  });

  it('declines with a reason; an expired quote cannot be accepted', async () => {
    const declined = await sent();
    const res = await stack.http
      .post('/api/public/quotes/decline')
      .send({ token: tokenOf(declined.customerLink), name: 'Jeanne', reason: 'Trop cher' });
    expect([res.status, res.body.status]).toEqual([200, 'declined']);
    expect((await post(`/api/quotes/${declined.id}/convert`)).body.code).toBe('quote_not_accepted');

    const expiring = await sent();
    // Time passes: move the validity date back (past the guard trigger, as the clock would).
    const owner = new Client({ connectionString: stack.services.config.MIGRATION_DATABASE_URL });
    await owner.connect();
    try {
      await owner.query('begin');
      await owner.query('alter table inv_quotes disable trigger inv_quotes_guard');
      await owner.query('update inv_quotes set valid_until = $1 where id = $2', [
        addDays(invoiceToday(), -1),
        expiring.id,
      ]);
      await owner.query('alter table inv_quotes enable trigger inv_quotes_guard');
      await owner.query('commit');
    } finally {
      await owner.end();
    }
    expect((await stack.http.get(`/api/quotes/${expiring.id}`).set(org.auth)).body.status).toBe('expired');
    const late = await accept(tokenOf(expiring.customerLink));
    expect([late.status, late.body.code]).toEqual([409, 'quote_expired']);
  });

  it('converts an accepted quote once, or as a deposit then a balance that adds up to it', async () => {
    const full = await sent();
    expect((await accept(tokenOf(full.customerLink))).status).toBe(200);
    const converted = await Promise.all([
      post(`/api/quotes/${full.id}/convert`),
      post(`/api/quotes/${full.id}/convert`),
    ]);
    expect(converted.map((r) => r.status).sort()).toEqual([201, 409]);
    const invoice = converted.find((r) => r.status === 201)!.body as Body;
    expect(invoice).toMatchObject({
      status: 'draft',
      customerId,
      grandTotalCents: 24_000,
      orderReference: full.number,
    });
    expect(converted.find((r) => r.status === 409)!.body.code).toBe('quote_already_converted');

    const split = await sent({ lines: [line(), line({ unitPriceCents: 3_333, vatRate: 5.5 })] });
    expect((await accept(tokenOf(split.customerLink))).status).toBe(200);
    expect((await post(`/api/quotes/${split.id}/convert`, { mode: 'balance' })).body.code).toBe('quote_no_deposit');
    expect((await post(`/api/quotes/${split.id}/convert`, { mode: 'deposit' })).status).toBe(400);
    const deposit = await post(`/api/quotes/${split.id}/convert`, { mode: 'deposit', depositPercent: 30 });
    expect(deposit.status).toBe(201);
    expect((await post(`/api/quotes/${split.id}/convert`, { mode: 'balance' })).body.code).toBe('deposit_not_issued');
    const issuedDeposit = await post(`/api/invoices/${deposit.body.id}/issue`);
    expect(issuedDeposit.status).toBe(200);
    const balance = await post(`/api/quotes/${split.id}/convert`, { mode: 'balance' });
    expect(balance.status).toBe(201);
    expect(balance.body.note).toContain(issuedDeposit.body.number);
    const quote = (await stack.http.get(`/api/quotes/${split.id}`).set(org.auth)).body;
    expect(deposit.body.taxExclusiveCents + balance.body.taxExclusiveCents).toBe(quote.taxExclusiveCents);
    expect(quote.invoices.map((i: { kind: string }) => i.kind)).toEqual(['deposit', 'balance']);
    expect((await post(`/api/quotes/${split.id}/convert`)).body.code).toBe('quote_already_converted');
  });

  it('makes a quote from a won deal only, and shows sent quotes on the customer timeline', async () => {
    const pipeline = await makePipeline(stack, org);
    const deal = await makeDeal(stack, org, { customerId, stageId: pipeline.stages[0].id });
    const open = await post('/api/quotes', { dealId: deal.id, lines: [line()] });
    expect([open.status, open.body.code]).toEqual([409, 'deal_not_won']);
    expect((await post(`/api/deals/${deal.id}/win`)).status).toBe(200);
    const fromDeal = await post('/api/quotes', { dealId: deal.id, lines: [line()] });
    expect(fromDeal.status).toBe(201);
    expect(fromDeal.body).toMatchObject({ dealId: deal.id, customerId });
    const sentQuote = await post(`/api/quotes/${fromDeal.body.id}/send`);

    const ctx = tenantContext(stack.services, org.tenantId, org.user.id);
    const page = await readTimeline(ctx, customerId, { limit: 50, sources: ['quote'] });
    expect(page.items).toContainEqual(
      expect.objectContaining({
        source: 'quote',
        id: fromDeal.body.id,
        type: 'sent',
        title: `Devis ${sentQuote.body.number}`,
        data: expect.objectContaining({ dealId: deal.id }),
      }),
    );
  });

  it("answers 404 for another organisation's quote and needs a customer or a deal", async () => {
    const mine = await draft();
    const other = await createAccount(stack);
    expect((await stack.http.get(`/api/quotes/${mine.id}`).set(other.auth)).status).toBe(404);
    const none = await post('/api/quotes', { lines: [line()] });
    expect([none.status, none.body.code]).toEqual([400, 'validation_failed']);
  });
});
