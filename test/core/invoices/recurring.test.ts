import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { runRecurringInvoices } from '../../../domain/core/invoices/recurring/runRecurringInvoices';
import { recurringInvoicesQueue } from '../../../queues/invoices';
import { addDays } from '../../../lib/calendar';
import { finishedJob } from '../../support/billing';
import { mailsTo } from '../../support/identity';
import type { Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { customerOf, invoicingOrg, line } from './support';

type Schedule = { id: string; status: string; nextRunOn: string | null; runs: { period: number; invoiceId: string }[] };

/** Enqueues one pass of the recurring invoices job, as the clock does, and waits for it. */
async function runPass(stack: TestStack, slot: string): Promise<number> {
  await stack.services.queues.add(recurringInvoicesQueue, { slot }, { jobId: `invoice-recurring-${slot}` });
  const job = await finishedJob(stack, recurringInvoicesQueue, `invoice-recurring-${slot}`);
  expect(job.failedReason).toBeUndefined();
  return (job.returnvalue as { invoiced: number }).invoiced;
}

describe('recurring invoices', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  let customerEmail: string;
  const today = invoiceToday();
  const day = Number(today.slice(8, 10));
  beforeAll(async () => {
    stack = await startStack({ workers: [recurringInvoicesQueue.name] });
    org = await invoicingOrg(stack);
    const customer = await customerOf(stack, org, { name: 'Abonné SARL' });
    customerId = customer.id;
    customerEmail = customer.primaryEmail!;
  });
  afterAll(() => stack.close());

  const create = (body: object) =>
    stack.http
      .post('/api/recurring-invoices')
      .set(org.auth)
      .send({ customerId, lines: [line()], interval: 'monthly', ...body });
  const get = async (id: string) =>
    (await stack.http.get(`/api/recurring-invoices/${id}`).set(org.auth)).body as Schedule;
  const invoicesOf = async (s: Schedule) =>
    Promise.all(
      s.runs.map(
        async (r) =>
          (await stack.http.get(`/api/invoices/${r.invoiceId}`).set(org.auth)).body as Record<string, unknown>,
      ),
    );

  it('invoices each period once however often the job runs, and catches up the periods missed while down', async () => {
    const made = await create({ dayOfPeriod: day, autoIssue: true, autoSend: true, note: 'Abonnement' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ status: 'active', nextRunOn: today, grandTotalCents: 24_000, runs: [] });
    const id = made.body.id as string;

    expect(await runPass(stack, 'a')).toBeGreaterThanOrEqual(1);
    expect(await runPass(stack, 'b')).toBe(0);
    let schedule = await get(id);
    expect(schedule.runs.map((r) => r.period)).toEqual([0]);
    const [first] = await invoicesOf(schedule);
    expect(first).toMatchObject({ status: 'issued', customerId, grandTotalCents: 24_000 });
    expect(first.note).toMatch(/^Abonnement\nPériode du /);
    const mails = await mailsTo(stack, customerEmail, 'core_invoice');
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/api/public/invoices?token=');
    expect(mails[0].text).not.toContain(org.tenantId);

    // The clock was down for three months: one pass catches up periods 1 to 3, two passes at once make each once.
    const later = new Date(`${addDays(today, 95)}T12:00:00Z`);
    const passes = await Promise.all([
      runRecurringInvoices(stack.services, later),
      runRecurringInvoices(stack.services, later),
    ]);
    expect(passes[0].invoiced + passes[1].invoiced).toBe(3);
    expect((await runRecurringInvoices(stack.services, later)).invoiced).toBe(0);
    schedule = await get(id);
    expect(schedule.runs.map((r) => r.period)).toEqual([3, 2, 1, 0]);
    const invoices = await invoicesOf(schedule);
    expect(new Set(invoices.map((i) => i.number)).size).toBe(4);
    expect(invoices.every((i) => i.status === 'issued')).toBe(true);
    expect(await mailsTo(stack, customerEmail, 'core_invoice')).toHaveLength(4);
    const rows = await stack.services.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from inv_recurring_runs where schedule_id = ?', [id]);
    expect(rows[0].n).toBe(4);
    expect((await stack.http.post(`/api/recurring-invoices/${id}/pause`).set(org.auth)).status).toBe(200);
  });

  it('leaves drafts without autoIssue, ends after maxCount, pauses, resumes past the pause and deletes', async () => {
    const made = await create({ interval: 'quarterly', dayOfPeriod: day, maxCount: 2 });
    expect(made.status).toBe(201);
    const id = made.body.id as string;
    expect((await runRecurringInvoices(stack.services)).invoiced).toBe(1);
    const [draftInvoice] = await invoicesOf(await get(id));
    expect(draftInvoice).toMatchObject({ status: 'draft', number: null });

    const paused = await stack.http.post(`/api/recurring-invoices/${id}/pause`).set(org.auth);
    expect(paused.body).toMatchObject({ status: 'paused' });
    const inFourMonths = new Date(`${addDays(today, 125)}T12:00:00Z`);
    expect((await runRecurringInvoices(stack.services, inFourMonths)).invoiced).toBe(0);
    const resumed = await stack.http.post(`/api/recurring-invoices/${id}/resume`).set(org.auth);
    expect(resumed.body).toMatchObject({ status: 'active', nextRunOn: expect.any(String) });
    expect(resumed.body.nextRunOn >= today).toBe(true);

    const list = await stack.http.get('/api/recurring-invoices?status=active').set(org.auth);
    expect(list.status).toBe(200);
    expect(list.body.items.map((s: { id: string }) => s.id)).toContain(id);

    expect((await stack.http.delete(`/api/recurring-invoices/${id}`).set(org.auth)).status).toBe(204);
    expect((await stack.http.get(`/api/recurring-invoices/${id}`).set(org.auth)).status).toBe(404);
    expect((await stack.http.get(`/api/invoices/${draftInvoice.id as string}`).set(org.auth)).status).toBe(200);
  });

  it('ends a schedule whose count is reached', async () => {
    const made = await create({ dayOfPeriod: day, maxCount: 1 });
    const id = made.body.id as string;
    await runRecurringInvoices(stack.services);
    expect(await get(id)).toMatchObject({ status: 'ended', nextRunOn: null });
    expect((await stack.http.post(`/api/recurring-invoices/${id}/resume`).set(org.auth)).status).toBe(409);
  });

  it('refuses bad input with 400 and hides other organisations with 404', async () => {
    for (const body of [
      { autoSend: true },
      { interval: 'weekly' },
      { startOn: addDays(today, -1) },
      { startOn: addDays(today, 10), endOn: today },
      { dayOfPeriod: 32 },
      { lines: [] },
    ]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.type).toBe('application/problem+json');
    }
    const made = await create({});
    const other = await invoicingOrg(stack);
    const id = made.body.id as string;
    for (const res of [
      await stack.http.get(`/api/recurring-invoices/${id}`).set(other.auth),
      await stack.http.post(`/api/recurring-invoices/${id}/pause`).set(other.auth),
      await stack.http.delete(`/api/recurring-invoices/${id}`).set(other.auth),
    ])
      expect(res.status).toBe(404);
    const foreignCustomer = await stack.http
      .post('/api/recurring-invoices')
      .set(org.auth)
      .send({
        customerId: (await customerOf(stack, await invoicingOrg(stack))).id,
        lines: [line()],
        interval: 'yearly',
      });
    expect(foreignCustomer.status).toBe(404);
  });

  it('makes drafts in its currency; refuses to issue automatically in another currency than the accounting one', async () => {
    const refused = await create({ currency: 'USD', autoIssue: true });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 400,
      code: 'exchange_rate_required',
    });
    expect((await create({ currency: 'ZZZ' })).body.code).toBe('unknown_currency');
    const made = await create({ currency: 'USD', dayOfPeriod: day, maxCount: 1 });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ currency: 'USD' });
    await runRecurringInvoices(stack.services);
    const [invoice] = await invoicesOf(await get(made.body.id as string));
    expect(invoice).toMatchObject({ status: 'draft', currency: 'USD', grandTotalCents: 24_000 });
    const issued = await stack.http
      .post(`/api/invoices/${invoice.id as string}/issue`)
      .set(org.auth)
      .send({ exchangeRate: '0.93' });
    expect(issued.body).toMatchObject({ status: 'issued', currency: 'USD', exchangeRate: '0.93' });
  });
});
