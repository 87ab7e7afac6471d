import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { runDate } from '../../../domain/core/invoices/recurring/periods';
import { firstRunOnOrAfter } from '../../../domain/core/invoices/recurring/reschedule';
import { runRecurringInvoices } from '../../../domain/core/invoices/recurring/runRecurringInvoices';
import { addDays } from '../../../lib/calendar';
import type { Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';
import { customerOf, invoicingOrg, line } from './support';

type Run = { period: number; periodStart: string; periodEnd: string; invoiceId: string };
type Schedule = {
  id: string;
  status: string;
  customerId: string;
  interval: string;
  dayOfPeriod: number;
  nextRunOn: string | null;
  grandTotalCents: number;
  runs: Run[];
};

/** PATCH /api/recurring-invoices/{id}: edits, pause and resume, and edits racing the clock's pass. */
describe('editing recurring invoices', () => {
  let stack: TestStack;
  let org: Account;
  let customerId: string;
  const today = invoiceToday();
  const day = Number(today.slice(8, 10));
  const at = (date: string) => new Date(`${date}T12:00:00Z`);
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await invoicingOrg(stack);
    customerId = (await customerOf(stack, org)).id;
  });
  afterAll(() => stack.close());

  const create = async (body: object = {}) => {
    const res = await stack.http
      .post('/api/recurring-invoices')
      .set(org.auth)
      .send({ customerId, lines: [line()], interval: 'monthly', dayOfPeriod: day, autoIssue: true, ...body });
    expect(res.status).toBe(201);
    return res.body as Schedule;
  };
  const patch = (id: string, body: object, who: Account = org) =>
    stack.http.patch(`/api/recurring-invoices/${id}`).set(who.auth).send(body);
  const get = async (id: string) =>
    (await stack.http.get(`/api/recurring-invoices/${id}`).set(org.auth)).body as Schedule;
  const invoice = async (id: string) =>
    (await stack.http.get(`/api/invoices/${id}`).set(org.auth)).body as Record<string, unknown>;
  const count = async (sql: string, params: unknown[]) =>
    ((await stack.services.orm.em.fork().getConnection().execute(sql, params)) as { n: number }[])[0].n;

  it('applies a new template, customer and cadence from the next period; invoiced periods stay as they were', async () => {
    const s = await create();
    expect((await runRecurringInvoices(stack.services)).invoiced).toBeGreaterThanOrEqual(1);
    const [first] = (await get(s.id)).runs;
    const firstInvoice = await invoice(first.invoiceId);
    expect(firstInvoice).toMatchObject({ status: 'issued', grandTotalCents: 24_000, customerId });

    const other = await customerOf(stack, org, { name: 'Repreneur SAS' });
    const changed = await patch(s.id, {
      customerId: other.id,
      lines: [line({ quantity: 1, unitPriceCents: 5_000 })],
      interval: 'quarterly',
      dayOfPeriod: 1,
      note: 'Forfait trimestriel',
      dueDays: 10,
    });
    expect(changed.status).toBe(200);
    // The new rule starts on its first day on or after the end of the invoiced month.
    const uncovered = runDate({ interval: 'monthly', dayOfPeriod: day, startOn: today }, 1);
    const next = firstRunOnOrAfter(1, uncovered);
    expect(changed.body).toMatchObject({
      status: 'active',
      customerId: other.id,
      interval: 'quarterly',
      dayOfPeriod: 1,
      grandTotalCents: 6_000,
      dueDays: 10,
      nextRunOn: next,
    });
    expect(changed.body.runs).toEqual([first]);

    // Nothing is due before the new day; on it, one invoice of the new template for a quarter.
    expect((await runRecurringInvoices(stack.services, at(addDays(next, -1)))).invoiced).toBe(0);
    await runRecurringInvoices(stack.services, at(next));
    const after = await get(s.id);
    expect(after.runs.map((r) => r.period)).toEqual([1, 0]);
    expect(after.runs[1]).toEqual(first);
    expect(after.runs[0]).toMatchObject({
      periodStart: next,
      periodEnd: addDays(runDate({ interval: 'quarterly', dayOfPeriod: 1, startOn: next }, 1), -1),
    });
    expect(after.runs[0].periodStart > first.periodEnd).toBe(true);
    expect(after.nextRunOn).toBe(runDate({ interval: 'quarterly', dayOfPeriod: 1, startOn: next }, 1));
    const second = await invoice(after.runs[0].invoiceId);
    expect(second).toMatchObject({ customerId: other.id, grandTotalCents: 6_000, status: 'issued' });
    expect(second.note).toMatch(/^Forfait trimestriel\nPériode du /);
    // The first invoice is untouched.
    expect(await invoice(first.invoiceId)).toEqual(firstInvoice);
  });

  it('pauses and resumes, ends at a nearer end, and refuses what cannot change', async () => {
    const s = await create({ startOn: addDays(today, 1), dayOfPeriod: undefined });
    expect((await patch(s.id, { status: 'paused' })).body).toMatchObject({ status: 'paused' });
    await runRecurringInvoices(stack.services, at(addDays(today, 40)));
    expect((await get(s.id)).runs).toEqual([]);
    expect((await patch(s.id, { status: 'active' })).body).toMatchObject({ status: 'active', nextRunOn: s.nextRunOn });
    // startOn may move while nothing is invoiced.
    const moved = await patch(s.id, { startOn: addDays(today, 3), dayOfPeriod: Number(addDays(today, 3).slice(8)) });
    expect(moved.body).toMatchObject({ nextRunOn: addDays(today, 3) });

    const issuedOne = await create();
    await runRecurringInvoices(stack.services);
    for (const [body, status, code] of [
      [{ startOn: addDays(today, 5) }, 409, 'recurring_invoice_started'],
      [{ endOn: addDays(today, -1) }, 400, 'validation_failed'],
      [{ interval: null }, 400, 'validation_failed'],
      [{ autoIssue: false, autoSend: true }, 400, 'validation_failed'],
      [{ dayOfPeriod: 0 }, 400, 'validation_failed'],
      [{ lines: [] }, 400, 'validation_failed'],
      [{ customerId: (await customerOf(stack, await invoicingOrg(stack))).id }, 404, 'not_found'],
    ] as const) {
      const res = await patch(issuedOne.id, body);
      expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
      expect(res.type).toBe('application/problem+json');
    }
    // maxCount null clears; a count reached ends it; an ended schedule is final.
    expect((await patch(issuedOne.id, { maxCount: 5 })).body).toMatchObject({ maxCount: 5, status: 'active' });
    expect((await patch(issuedOne.id, { maxCount: null })).body).toMatchObject({ maxCount: null });
    expect((await patch(issuedOne.id, { endOn: today })).body).toMatchObject({ status: 'ended', nextRunOn: null });
    const ended = await patch(issuedOne.id, { endOn: null, status: 'active' });
    expect({ status: ended.status, code: ended.body.code }).toEqual({ status: 409, code: 'recurring_invoice_ended' });
    expect((await stack.http.post(`/api/recurring-invoices/${issuedOne.id}/resume`).set(org.auth)).status).toBe(409);
    // Another organisation's schedule is not found.
    expect((await patch(s.id, { note: 'x' }, await invoicingOrg(stack))).status).toBe(404);
  });

  /** Waiters on a row lock in this test's database (the edit or the pass queued behind `hold`). */
  const lockWaiters = () =>
    count(
      `select count(*)::int as n from pg_stat_activity
       where datname = current_database() and wait_event_type = 'Lock' and query ilike '%inv_recurring_invoices%'`,
      [],
    );

  /**
   * Holds the schedule's row lock, queues `first` then `second` behind it (each seen waiting before the next
   * starts), releases, and answers both results: PostgreSQL grants the lock in that order.
   */
  async function inOrder<A, B>(id: string, first: () => Promise<A>, second: () => Promise<B>): Promise<[A, B]> {
    let a!: Promise<A>;
    let b!: Promise<B>;
    await stack.services.orm.em.fork().transactional(async (em) => {
      await em.execute('select id from inv_recurring_invoices where id = ? for update', [id]);
      a = first();
      await eventually(async () => (await lockWaiters()) === 1, { what: 'the first waiter' });
      b = second();
      await eventually(async () => (await lockWaiters()) === 2, { what: 'the second waiter' });
    });
    return Promise.all([a, b]);
  }

  it('an edit and the clock pass at once: one invoice per period, by the rule in force when its turn comes', async () => {
    for (const editFirst of [false, true]) {
      const customer = await customerOf(stack, org);
      const s = await create({ customerId: customer.id });
      // then(): a supertest request is sent when awaited, the edit must start now.
      const edit = () => patch(s.id, { interval: 'yearly', lines: [line({ unitPriceCents: 7_000 })] }).then((r) => r);
      const pass = () => runRecurringInvoices(stack.services);
      const [edited] = editFirst ? await inOrder(s.id, edit, pass) : [(await inOrder(s.id, pass, edit))[1]];
      expect(edited.status).toBe(200);
      const after = await get(s.id);
      expect(after.runs.map((r) => r.period)).toEqual([0]);
      const [run] = after.runs;
      expect(after.nextRunOn! > run.periodEnd).toBe(true);
      expect((await runRecurringInvoices(stack.services)).invoiced).toBe(0);
      expect(
        await count('select count(*)::int as n from inv_invoices where tenant_id = ? and customer_id = ?', [
          org.tenantId,
          customer.id,
        ]),
      ).toBe(1);
      const made = await invoice(run.invoiceId);
      if (editFirst) {
        // A year of the new template.
        expect(made.grandTotalCents).toBe(16_800);
        expect(run.periodEnd).toBe(addDays(runDate({ interval: 'yearly', dayOfPeriod: day, startOn: today }, 1), -1));
      } else {
        // A month of the old template, then the yearly rule from the day after it.
        expect(made.grandTotalCents).toBe(24_000);
        expect(run.periodEnd).toBe(addDays(runDate({ interval: 'monthly', dayOfPeriod: day, startOn: today }, 1), -1));
        expect(after.nextRunOn).toBe(firstRunOnOrAfter(day, addDays(run.periodEnd, 1)));
      }
    }
  });

  it('two edits at once apply one after the other, each whole', async () => {
    const s = await create({ startOn: addDays(today, 2), dayOfPeriod: undefined });
    const [a, b] = await Promise.all([
      patch(s.id, { lines: [line({ unitPriceCents: 1_000 })], interval: 'quarterly' }),
      patch(s.id, { lines: [line({ unitPriceCents: 3_000 }), line()], interval: 'yearly' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const final = await get(s.id);
    expect([
      { interval: 'quarterly', grandTotalCents: 2_400 },
      { interval: 'yearly', grandTotalCents: 31_200 },
    ]).toContainEqual({ interval: final.interval, grandTotalCents: final.grandTotalCents });
  });

  it('a schedule in a foreign currency: each invoice records the rate it is issued with', async () => {
    const s = await create({ currency: 'USD', autoIssue: false, maxCount: 2 });
    const refused = await patch(s.id, { autoIssue: true });
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 400,
      code: 'exchange_rate_required',
    });
    // Two periods made by one late pass, then issued on different days with the day's rate.
    await runRecurringInvoices(stack.services, at(addDays(today, 35)));
    const runs = (await get(s.id)).runs;
    expect(runs.map((r) => r.period)).toEqual([1, 0]);
    const rates = ['0.9215', '0.8537'];
    for (const [i, run] of runs.entries()) {
      const drafted = await invoice(run.invoiceId);
      expect(drafted).toMatchObject({ status: 'draft', currency: 'USD', exchangeRate: null });
      const res = await stack.http
        .post(`/api/invoices/${run.invoiceId}/issue`)
        .set(org.auth)
        .send({ exchangeRate: rates[i] });
      expect(res.status).toBe(200);
    }
    const issued = await Promise.all(runs.map((r) => invoice(r.invoiceId)));
    // VAT 40.00 USD: 36.86 EUR at 0.9215, 34.15 at 0.8537 (BT-111, rounded half up).
    expect(issued.map((i) => [i.status, i.accountingCurrency, i.exchangeRate, i.vatTotalAccountingCents])).toEqual([
      ['issued', 'EUR', '0.9215', 3686],
      ['issued', 'EUR', '0.8537', 3415],
    ]);
    // Recorded on the row: the database refuses to change the rate of an issued invoice.
    await expect(
      stack.services.orm.em
        .fork()
        .getConnection()
        .execute('update inv_invoices set exchange_rate = 1 where id = ?', [runs[0].invoiceId]),
    ).rejects.toThrow();
  });
});
