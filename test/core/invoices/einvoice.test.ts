import { DependencyUnavailableError } from '../../../lib/dependencies';
import { relayStagedJobs } from '../../../domain/jobs/relayStagedJobs';
import { pollLifecycles } from '../../../domain/core/invoices/einvoice/pollLifecycles';
import { einvoiceQueue } from '../../../queues/einvoice';
import { finishedJob } from '../../support/billing';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';
import { fakePlatform, platformEnv } from '../../support/einvoicePlatform';
import type { Account } from '../../support/factories';
import { customerOf, invoicingOrg, issued } from './support';

describe('e-invoice submission', () => {
  let stack: TestStack;
  let bare: TestStack;
  let org: Account;
  let customerId: string;
  const platform = fakePlatform();
  beforeAll(async () => {
    const url = await platform.start();
    stack = await startStack({
      workers: ['einvoice'],
      env: {
        ...platformEnv(url),
      },
    });
    bare = await startStack({ sharing: stack, workers: false, env: { ...stack.env, EINVOICE_PLATFORM_URL: '' } });
    org = await invoicingOrg(stack);
    customerId = (await customerOf(stack, org)).id;
  });
  afterAll(async () => {
    await bare?.close();
    await stack?.close();
    await platform.close();
  });

  it('answers 503 einvoice_platform_not_configured without a platform', async () => {
    const inv = await issued(stack, org, customerId);
    const res = await bare.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth);
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('einvoice_platform_not_configured');
    expect((await bare.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body).toMatchObject({
      status: 'not_submitted',
      history: [],
    });
    // Unknown, and another organisation's: 404.
    const other = await invoicingOrg(stack);
    for (const [id, auth] of [
      ['0190a8f0-0000-7000-8000-000000000000', org.auth],
      [inv.id, other.auth],
    ] as const) {
      expect((await stack.http.get(`/api/invoices/${id}/einvoice`).set(auth)).status).toBe(404);
    }
  });

  it('retries after platform failures, submits once, and reports the lifecycle with its history', async () => {
    const inv = await issued(stack, org, customerId);
    platform.failNext(2);
    const res = await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ invoiceId: inv.id, status: 'queued', platform: 'test-pdp', platformId: null });
    const again = await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth);
    expect(again.status).toBe(200);
    const job = await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`);
    expect(job.returnvalue).toEqual({ outcome: 'submitted' });
    expect(job.attemptsMade).toBe(3);
    const mine = platform.posts.filter((p) => p.body.number === inv.number);
    expect(mine).toHaveLength(3);
    expect(new Set(mine.map((p) => p.key)).size).toBe(1);
    expect(Buffer.from(String(mine[0].body.document), 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const state = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body;
    expect(state).toMatchObject({
      status: 'submitted',
      platformId: expect.stringMatching(/^PDP-/),
      attempts: 3,
      lastError: null,
      history: [expect.objectContaining({ status: 'queued' }), expect.objectContaining({ status: 'submitted' })],
    });

    // A replayed job sends nothing again.
    await stack.services.queues.add(
      einvoiceQueue,
      { kind: 'submit', tenantId: org.tenantId, invoiceId: inv.id },
      { jobId: `replay.${inv.id}` },
    );
    expect((await finishedJob(stack, einvoiceQueue, `replay.${inv.id}`)).returnvalue).toEqual({
      outcome: 'already_submitted',
    });
    expect(platform.posts.filter((p) => p.body.number === inv.number)).toHaveLength(3);

    // Lifecycle statuses the platform reports are polled into the history once each.
    const platformId = state.platformId as string;
    platform.lifecycle.set(platformId, [
      { id: 'e1', status: 'delivered', at: new Date(Date.now() + 1000).toISOString() },
      { id: 'e2', status: 'paid', at: new Date(Date.now() + 2000).toISOString(), reason: 'encaissée' },
      { id: 'e3', status: 'teleported', at: new Date().toISOString() },
    ]);
    for (const slot of ['a', 'b']) {
      await stack.services.queues.add(einvoiceQueue, { kind: 'poll', slot }, { jobId: `einvoice.poll.${slot}` });
      await finishedJob(stack, einvoiceQueue, `einvoice.poll.${slot}`);
    }
    const after = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body;
    expect(after.status).toBe('paid');
    expect(after.history.map((h: { status: string }) => h.status)).toEqual([
      'queued',
      'submitted',
      'delivered',
      'paid',
    ]);
  });

  it('polls every open document in turn, however many there are: those with no news or an unreadable lifecycle do not hold the places', async () => {
    const submitted = async () => {
      const inv = await issued(stack, org, customerId);
      expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
      await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`);
      return {
        id: inv.id,
        platformId: (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body.platformId as string,
      };
    };
    const status = async (invoiceId: string) =>
      (await stack.http.get(`/api/invoices/${invoiceId}/einvoice`).set(org.auth)).body.status as string;
    // The oldest open documents: one whose lifecycle the platform cannot read, one waiting for its recipient.
    const unreadable = await submitted();
    const waiting = await submitted();
    const delivered = await submitted();
    platform.unreadable.add(unreadable.platformId);
    platform.lifecycle.set(delivered.platformId, [{ id: 'd1', status: 'delivered', at: new Date().toISOString() }]);
    // Runs of one document each (the production limit is 500): as many runs as open documents read each once.
    const [{ open }] = await stack.services.orm.em
      .fork()
      .execute<{ open: number }[]>(
        "select count(*)::int as open from inv_einvoice_submissions where platform_id is not null and status not in ('rejected', 'refused', 'paid', 'failed')",
      );
    expect(open).toBeGreaterThanOrEqual(3);
    const poll = async (runs: number) => {
      for (let i = 0; i < runs; i++) expect(await pollLifecycles(stack.services, 1)).toMatchObject({ polled: 1 });
    };
    await poll(open);
    expect([await status(unreadable.id), await status(waiting.id), await status(delivered.id)]).toEqual([
      'submitted',
      'submitted',
      'delivered',
    ]);
    // The failed read and the document without news come round again.
    platform.unreadable.delete(unreadable.platformId);
    platform.lifecycle.set(unreadable.platformId, [
      { id: 'u1', status: 'refused', at: new Date().toISOString(), reason: 'wrong buyer' },
    ]);
    platform.lifecycle.set(waiting.platformId, [{ id: 'w1', status: 'received', at: new Date().toISOString() }]);
    await poll(open);
    expect([await status(unreadable.id), await status(waiting.id), await status(delivered.id)]).toEqual([
      'refused',
      'received',
      'delivered',
    ]);
    // Read again, nothing is recorded twice.
    await poll(open);
    expect(
      (await stack.http.get(`/api/invoices/${waiting.id}/einvoice`).set(org.auth)).body.history.map(
        (h: { status: string }) => h.status,
      ),
    ).toEqual(['queued', 'submitted', 'received']);
  });

  it('accepts a submission whose job could not be enqueued: the job committed with it is enqueued by the relay', async () => {
    const inv = await issued(stack, org, customerId);
    const addStaged = jest
      .spyOn(stack.services.queues, 'addStaged')
      .mockRejectedValueOnce(new DependencyUnavailableError('Redis'));
    try {
      expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
    } finally {
      addStaged.mockRestore();
    }
    expect(await stack.services.queues.get(einvoiceQueue).getJobState(`einvoice.submit.${inv.id}`)).toBe('unknown');
    await relayStagedJobs(stack.services, 0);
    expect((await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`)).returnvalue).toEqual({
      outcome: 'submitted',
    });
    // Submitting again answers the state and changes nothing.
    const again = await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth);
    expect(again.status).toBe(200);
    expect((await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body).toMatchObject({
      status: 'submitted',
      history: [expect.objectContaining({ status: 'queued' }), expect.objectContaining({ status: 'submitted' })],
    });
  });

  it('resubmits a submission that failed after every attempt', async () => {
    const inv = await issued(stack, org, customerId);
    platform.failNext(8);
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
    const failed = await eventually(
      async () => {
        const body = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body;
        return body.status === 'failed' ? body : null;
      },
      { timeoutMs: 30_000 },
    );
    expect(failed).toMatchObject({ platformId: null, attempts: 8, lastError: expect.stringContaining('503') });
    const res = await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', lastError: null });
    // Its own job (the failed one is kept): submitted once, and submitting again now answers its state.
    expect((await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}.1`)).returnvalue).toEqual({
      outcome: 'submitted',
    });
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(200);
    const state = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(org.auth)).body;
    expect(state).toMatchObject({ status: 'submitted', attempts: 9, platformId: expect.stringMatching(/^PDP-/) });
    expect(state.history.map((h: { status: string }) => h.status)).toEqual(['queued', 'failed', 'queued', 'submitted']);
  });

  it('records a document the platform refuses as rejected, without retrying', async () => {
    const own = await invoicingOrg(stack);
    const customer = await customerOf(stack, own);
    await stack.http.put('/api/invoices/settings').set(own.auth).send({ invoicePrefix: 'F{YYYY}REJECT', digits: 3 });
    const inv = await issued(stack, own, customer.id);
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(own.auth)).status).toBe(202);
    const job = await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`);
    expect(job.attemptsMade).toBe(1);
    const state = await eventually(async () => {
      const body = (await stack.http.get(`/api/invoices/${inv.id}/einvoice`).set(own.auth)).body;
      return body.status === 'rejected' ? body : null;
    });
    expect(state.lastError).toContain('422');
  });
  it('emits the lifecycle statuses of received invoices and "Encaissée" when a payment settles a submitted invoice', async () => {
    // A supplier's invoice received by `org`: approved, then paid; another refused with its reason.
    const supplier = await invoicingOrg(stack, { siren: '552100554', vatNumber: 'FR96552100554' });
    const supplierCustomer = await customerOf(stack, supplier);
    const receive = async () => {
      const sent = await issued(stack, supplier, supplierCustomer.id);
      const xml = (await stack.http.get(`/api/invoices/${sent.id}/einvoice/factur-x.xml`).set(supplier.auth)).text;
      const res = await stack.http
        .post('/api/supplier-invoices')
        .set(org.auth)
        .set('Content-Type', 'application/xml')
        .send(xml);
      expect(res.status).toBe(201);
      return res.body as { id: string; number: string };
    };
    const first = await receive();
    const act = (id: string, action: string, body?: object) =>
      stack.http.post(`/api/supplier-invoices/${id}/${action}`).set(org.auth).send(body);
    platform.failNext(1);
    const approved = await act(first.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', statusMessages: [{ status: 'approved', code: '205' }] });
    expect((await act(first.id, 'approve')).body.statusMessages).toHaveLength(1);
    expect((await act(first.id, 'pay')).body.status).toBe('paid');
    const refusedFinal = await act(first.id, 'refuse', { reason: 'late' });
    expect(refusedFinal.status).toBe(409);
    expect(refusedFinal.body.code).toBe('supplier_invoice_status_final');

    const second = await receive();
    expect((await act(second.id, 'refuse', {})).status).toBe(400);
    expect((await act(second.id, 'refuse', { reason: 'Quantité facturée non livrée' })).body).toMatchObject({
      status: 'refused',
      statusReason: 'Quantité facturée non livrée',
    });

    const sentFor = (number: string) =>
      [...platform.statuses.values()]
        .filter((s) => (s.body.invoice as { number: string }).number === number)
        .map(
          (s) => `${String(s.body.code)} ${String(s.body.status)}${s.body.reason ? ` ${String(s.body.reason)}` : ''}`,
        );
    await eventually(async () => (sentFor(first.number).length === 2 && sentFor(second.number).length === 1) || null);
    expect(sentFor(first.number).sort()).toEqual(['205 approved', '211 paid']);
    expect(sentFor(second.number)).toEqual(['210 refused Quantité facturée non livrée']);
    const detail = await eventually(async () => {
      const body = (await stack.http.get(`/api/supplier-invoices/${first.id}`).set(org.auth)).body;
      return body.statusMessages.every((m: { state: string }) => m.state === 'sent') ? body : null;
    });
    expect(detail.statusMessages.map((m: { code: string }) => m.code)).toEqual(['205', '211']);

    // An issued invoice, submitted, then settled by POST /pay: "Encaissée" (212) goes to the platform once.
    const inv = await issued(stack, org, customerId);
    expect((await stack.http.post(`/api/invoices/${inv.id}/einvoice/submit`).set(org.auth)).status).toBe(202);
    await finishedJob(stack, einvoiceQueue, `einvoice.submit.${inv.id}`);
    expect(
      (await stack.http.post(`/api/invoices/${inv.id}/pay`).set(org.auth).send({ amountCents: 4_000 })).status,
    ).toBe(200);
    expect(sentFor(inv.number)).toEqual([]);
    expect((await stack.http.post(`/api/invoices/${inv.id}/pay`).set(org.auth).send({})).body.status).toBe('paid');
    await eventually(async () => sentFor(inv.number).length > 0 || null);
    const collected = [...platform.statuses.values()].find(
      (s) => (s.body.invoice as { number: string }).number === inv.number,
    )!;
    expect(collected.body).toMatchObject({
      code: '212',
      status: 'collected',
      documentId: expect.stringMatching(/^PDP-/),
    });
  });
});
