import { runEReporting } from '../../../domain/core/invoices/ereporting/buildEReports';
import { periodOf } from '../../../domain/core/invoices/ereporting/periods';
import { invoiceToday } from '../../../domain/core/invoices/lookup';
import { addDays } from '../../../lib/calendar';
import { einvoiceQueue } from '../../../queues/einvoice';
import { finishedJob } from '../../support/billing';
import { fakePlatform, platformEnv } from '../../support/einvoicePlatform';
import type { Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';
import { customerOf, invoicingOrg, issued, line } from './support';

/** The instant (noon UTC) of the day after the `n`-th decade from today's (0: today's) has ended. */
function afterDecades(n: number): { at: string; period: { start: string; end: string } } {
  let period = periodOf('real_monthly', invoiceToday());
  for (let i = 0; i < n; i++) period = periodOf('real_monthly', addDays(period.end, 1));
  return { at: `${addDays(period.end, 1)}T12:00:00.000Z`, period };
}

interface ReportBody {
  id: string;
  kind: string;
  sequence: number;
  periodStart: string;
  periodEnd: string;
  vatRegime: string;
  state: string;
  attempts: number;
  lines: Record<string, unknown>[];
}

describe('e-reporting', () => {
  let stack: TestStack;
  const platform = fakePlatform();
  let passes = 0;
  beforeAll(async () => {
    const url = await platform.start();
    stack = await startStack({
      workers: ['einvoice'],
      env: {
        ...platformEnv(url),
      },
    });
  });
  afterAll(async () => {
    await stack?.close();
    await platform.close();
  });

  /**
   * Runs the clock's pass as of `at` through the queue, over the organisation only (the test database holds the
   * organisations of every test file, which a pass as of a later day would report all).
   */
  const pass = async (org: Account, at: string) => {
    const jobId = `einvoice.ereporting.test-${++passes}`;
    await stack.services.queues.add(
      einvoiceQueue,
      { kind: 'ereporting', slot: jobId, at, tenantId: org.tenantId },
      { jobId },
    );
    const job = await finishedJob(stack, einvoiceQueue, jobId);
    expect(job.failedReason ?? null).toBeNull();
  };
  const reports = async (org: Account, query = '') => {
    const res = await stack.http.get(`/api/invoices/ereports?limit=100${query}`).set(org.auth);
    expect(res.status).toBe(200);
    return res.body.items as ReportBody[];
  };
  const report = async (org: Account, id: string) =>
    (await stack.http.get(`/api/invoices/ereports/${id}`).set(org.auth)).body as ReportBody;
  const allSent = (org: Account, count: number) =>
    eventually(
      async () => {
        const items = await reports(org);
        return items.length === count && items.every((r) => r.state === 'sent') ? items : null;
      },
      { timeoutMs: 30_000, what: `${count} reports sent` },
    );

  it('reports B2C and international sales and collected services per closed period, once, and their corrections', async () => {
    const org = await invoicingOrg(stack);
    expect((await stack.http.get('/api/invoices/ereporting/settings').set(org.auth)).body).toEqual({
      vatRegime: 'real_monthly',
      chosen: false,
    });
    const consumer = await customerOf(stack, org, { name: 'Jeanne Martin' });
    const german = await customerOf(stack, org, { name: 'Müller GmbH', country: 'DE' });
    const french = await customerOf(stack, org, { name: 'Client Martin SARL' });
    // A consumer: services 2 × 100.00 at 20 %, and goods at 5.5 %; then a credit note of 50.00 on the services.
    const services = await issued(stack, org, consumer.id);
    await issued(stack, org, consumer.id, {
      operationCategory: 'goods',
      lines: [line({ quantity: 1, unitPriceCents: 3_333, vatRate: 5.5 })],
    });
    const credit = await stack.http
      .post(`/api/invoices/${services.id}/credit-note`)
      .set(org.auth)
      .send({ reason: 'Geste commercial', lines: [line({ quantity: 1, unitPriceCents: 5_000 })] });
    expect(credit.status).toBe(201);
    // A business abroad; a French business (e-invoiced: not in the transactions).
    await issued(stack, org, german.id, { buyer: { vatNumber: 'DE123456789' } });
    const b2b = await issued(stack, org, french.id, { buyer: { legalId: '552100554' } });
    // Payments of services, B2C and B2B alike: 100.00 on the consumer's, the whole B2B invoice.
    const today = invoiceToday();
    for (const [id, amountCents] of [
      [services.id, 10_000],
      [b2b.id, 24_000],
    ] as const)
      expect(
        (await stack.http.post(`/api/invoices/${id}/pay`).set(org.auth).send({ amountCents, paidOn: today })).status,
      ).toBe(200);

    // The period has not closed: nothing is reported.
    await pass(org, new Date().toISOString());
    expect(await reports(org)).toEqual([]);

    const closed = afterDecades(0);
    await pass(org, closed.at);
    await pass(org, closed.at);
    const sent = await allSent(org, 2);
    const transactions = await report(org, sent.find((r) => r.kind === 'transactions')!.id);
    expect(transactions).toMatchObject({
      periodStart: closed.period.start,
      periodEnd: closed.period.end,
      vatRegime: 'real_monthly',
      sequence: 0,
      state: 'sent',
      attempts: 1,
      itemCount: 4,
      platformReportId: expect.stringMatching(/^ER-/),
    });
    const tline = (fields: Record<string, unknown>) => ({
      date: today,
      amountCents: null,
      paymentCount: null,
      creditNoteCount: 0,
      invoiceCount: 1,
      ...fields,
    });
    expect(transactions.lines).toEqual([
      tline({
        scope: 'b2c',
        category: 'goods',
        categoryCode: 'TLB1',
        vatRateBp: 550,
        taxableCents: 3_333,
        vatCents: 183,
      }),
      tline({
        scope: 'b2c',
        category: 'services',
        categoryCode: 'TPS1',
        vatRateBp: 2000,
        taxableCents: 20_000 - 5_000,
        vatCents: 4_000 - 1_000,
        creditNoteCount: 1,
      }),
      tline({
        scope: 'international',
        category: 'services',
        categoryCode: 'TPS1',
        vatRateBp: 2000,
        taxableCents: 20_000,
        vatCents: 4_000,
      }),
    ]);
    const payments = await report(org, sent.find((r) => r.kind === 'payments')!.id);
    expect(payments).toMatchObject({ sequence: 0, itemCount: 2, taxableCents: 28_333, vatCents: 5_667 });
    expect(payments.lines).toEqual([
      {
        date: today,
        vatRateBp: 2000,
        amountCents: 34_000,
        taxableCents: 28_333,
        vatCents: 5_667,
        paymentCount: 2,
        scope: null,
        category: null,
        categoryCode: null,
        invoiceCount: null,
        creditNoteCount: null,
      },
    ]);
    // The platform got each once, under its id as Idempotency-Key, with the lines stored.
    for (const r of [transactions, payments]) {
      expect(platform.ereports.get(r.id)?.body).toMatchObject({
        id: r.id,
        kind: r.kind,
        period: { start: closed.period.start, end: closed.period.end },
        sequence: 0,
        rectifying: false,
        seller: { siren: '732829320', vatNumber: 'FR44732829320', name: 'Atelier Dupont SAS' },
        lines: r.lines.map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== null))),
      });
      expect(platform.ereportPosts.filter((p) => p.key === r.id)).toHaveLength(1);
    }

    // Late: a payment dated in the reported period and a consumer invoice committed after it was reported make
    // rectifying reports of that period holding only them; a late domestic B2B invoice makes none.
    const late = await issued(stack, org, consumer.id, { lines: [line({ quantity: 1 })] });
    await issued(stack, org, french.id, { buyer: { legalId: '552100554' } });
    expect(
      (await stack.http.post(`/api/invoices/${late.id}/pay`).set(org.auth).send({ amountCents: 6_000, paidOn: today }))
        .status,
    ).toBe(200);
    await pass(org, closed.at);
    await pass(org, closed.at);
    const withCorrections = await allSent(org, 4);
    const rectifying = withCorrections.filter((r) => r.sequence === 1);
    expect(rectifying.map((r) => [r.kind, r.periodStart]).sort()).toEqual([
      ['payments', closed.period.start],
      ['transactions', closed.period.start],
    ]);
    const lateTransactions = await report(org, rectifying.find((r) => r.kind === 'transactions')!.id);
    expect(lateTransactions).toMatchObject({ itemCount: 1, taxableCents: 10_000, vatCents: 2_000 });
    expect(platform.ereports.get(lateTransactions.id)?.body).toMatchObject({ sequence: 1, rectifying: true });

    // The clock down for two periods: the next pass reports both (nothing in them, declared all the same).
    const twoLater = afterDecades(2);
    await pass(org, twoLater.at);
    const caughtUp = await allSent(org, 8);
    expect(
      caughtUp
        .filter((r) => r.sequence === 0)
        .map((r) => r.periodStart)
        .sort(),
    ).toEqual(
      [
        closed.period.start,
        closed.period.start,
        afterDecades(1).period.start,
        afterDecades(1).period.start,
        twoLater.period.start,
        twoLater.period.start,
      ].sort(),
    );
    expect((await report(org, caughtUp[0].id)).lines).toEqual([]);

    // Filters.
    expect(await reports(org, '&kind=payments&state=sent')).toHaveLength(4);
    expect(await reports(org, `&periodFrom=${twoLater.period.start}`)).toHaveLength(2);
    expect(await reports(org, `&periodTo=${closed.period.end}&kind=transactions`)).toHaveLength(2);
    expect(await reports(org, '&state=failed')).toEqual([]);
    expect((await stack.http.get('/api/invoices/ereports?kind=vat').set(org.auth)).status).toBe(400);
    expect((await stack.http.get('/api/invoices/ereports?periodFrom=2026-02-30').set(org.auth)).status).toBe(400);

    // Re-sent: a new attempt with the same key; the platform keeps one report.
    const resent = await stack.http.post(`/api/invoices/ereports/${transactions.id}/resend`).set(org.auth);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ id: transactions.id, state: 'queued' });
    await finishedJob(stack, einvoiceQueue, `einvoice.ereport.${transactions.id}.1`);
    expect(await report(org, transactions.id)).toMatchObject({ state: 'sent', attempts: 2 });
    expect(platform.ereportPosts.filter((p) => p.key === transactions.id)).toHaveLength(2);
    expect([...platform.ereports.keys()].filter((k) => k === transactions.id)).toHaveLength(1);
    expect(platform.ereports.get(transactions.id)?.body.lines).toEqual(platform.ereportPosts.at(-1)?.body.lines);

    // Unknown, and another organisation's: 404.
    const other = await invoicingOrg(stack);
    for (const [method, path] of [
      ['get', `/api/invoices/ereports/${transactions.id}`],
      ['post', `/api/invoices/ereports/${transactions.id}/resend`],
      ['get', '/api/invoices/ereports/0190a8f0-0000-7000-8000-000000000000'],
    ] as const)
      expect((await stack.http[method](path).set(other.auth)).status).toBe(404);
    expect(await reports(other)).toEqual([]);
  });

  it('sends a report exactly once through a platform outage, and answers 409 to a re-send while it is being sent', async () => {
    const org = await invoicingOrg(stack);
    const consumer = await customerOf(stack, org, { name: 'Paul Durand' });
    await issued(stack, org, consumer.id);
    platform.outage.ereports = true;
    try {
      await pass(org, afterDecades(0).at);
      const failing = await eventually(async () => {
        const items = await reports(org, '&kind=transactions');
        return items.length === 1 && items[0].attempts >= 1 ? items[0] : null;
      });
      expect(failing).toMatchObject({ state: 'queued', lastError: expect.stringContaining('503') });
      const busy = await stack.http.post(`/api/invoices/ereports/${failing.id}/resend`).set(org.auth);
      expect(busy.status).toBe(409);
      expect(busy.body.code).toBe('ereport_queued');
    } finally {
      platform.outage.ereports = false;
    }
    const [sent] = await allSent(org, 1);
    expect(platform.ereports.get(sent.id)?.body).toMatchObject({ id: sent.id, kind: 'transactions' });
    expect([...platform.ereports.values()].filter((r) => r.body.id === sent.id)).toHaveLength(1);
    expect(platform.ereportPosts.filter((p) => p.key === sent.id).length).toBeGreaterThanOrEqual(2);
  });

  it('cuts the periods by the organisation’s regime from the day after the last reported one', async () => {
    const org = await invoicingOrg(stack);
    const consumer = await customerOf(stack, org);
    await issued(stack, org, consumer.id);
    for (const body of [{ vatRegime: 'yearly' }, {}, { vatRegime: 7 }])
      expect((await stack.http.put('/api/invoices/ereporting/settings').set(org.auth).send(body)).status).toBe(400);
    const put = await stack.http
      .put('/api/invoices/ereporting/settings')
      .set(org.auth)
      .send({ vatRegime: 'real_quarterly' });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ vatRegime: 'real_quarterly', chosen: true });
    // The month closes with the day after its end.
    const month = periodOf('real_quarterly', invoiceToday());
    await pass(org, `${addDays(month.end, 1)}T12:00:00.000Z`);
    // Payments are reported from the period of the first one: none yet, no payments report.
    const items = await allSent(org, 1);
    expect(items.map((r) => [r.kind, r.periodStart, r.periodEnd, r.vatRegime])).toEqual([
      ['transactions', month.start, month.end, 'real_quarterly'],
    ]);
  });

  it('builds one report however many passes run at once, and the database keeps its content as built', async () => {
    const org = await invoicingOrg(stack);
    const consumer = await customerOf(stack, org);
    await issued(stack, org, consumer.id);
    const at = new Date(afterDecades(0).at);
    const results = await Promise.all([1, 2, 3].map(() => runEReporting(stack.services, at, org.tenantId)));
    expect(results.map((r) => r.built).sort()).toEqual([0, 0, 1]);
    const [built] = await allSent(org, 1);
    const db = stack.services.orm.em.fork();
    for (const sql of [
      `update inv_ereports set lines = '[]' where id = ?`,
      `update inv_ereports set period_end = period_end + 1 where id = ?`,
      `delete from inv_ereports where id = ?`,
      `delete from inv_ereport_items where report_id = ?`,
    ])
      await expect(db.execute(sql, [built.id])).rejects.toThrow(/e-report|cannot be changed or deleted/);
    expect((await report(org, built.id)).lines).toHaveLength(1);
  });

  it('reports a document in another currency in the accounting currency, at its recorded rate', async () => {
    const org = await invoicingOrg(stack);
    const consumer = await customerOf(stack, org);
    // 2 × 100.00 USD at 20 %, at 0.5 EUR for 1 USD: 100.00 EUR taxable, 20.00 EUR of VAT.
    await issued(stack, org, consumer.id, { currency: 'USD', exchangeRate: '0.5' });
    await pass(org, afterDecades(0).at);
    const [sent] = await allSent(org, 1);
    const built = await report(org, sent!.id);
    expect(built).toMatchObject({ currency: 'EUR', taxableCents: 10_000, vatCents: 2_000 });
    expect(built.lines).toEqual([expect.objectContaining({ taxableCents: 10_000, vatCents: 2_000, invoiceCount: 1 })]);
  });
});
