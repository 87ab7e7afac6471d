import { UnrecoverableError, Worker } from 'bullmq';
import { MailMessage } from '../../entities/platform/mail';
import { composeMail, dispatchMails } from '../../domain/platform/mail';
import { STALLED_REASON } from '../../domain/jobs/redriveJob';
import { bullConnection } from '../../lib/redis';
import { stripeEventJobId } from '../../domain/billing/receiveStripeWebhook';
import { stripeEventsQueue } from '../../queues/billing';
import { crmImportQueue } from '../../queues/crm';
import { einvoiceQueue } from '../../queues/einvoice';
import { mailQueue } from '../../queues/identity';
import { stagedJobsRelayQueue } from '../../queues/jobs';
import { telemetryQueue } from '../../queues/vr';
import type { QueueDefinition } from '../../queues/define';
import { startWorkers, type WorkerPool } from '../../workers/main';
import { deliver, finishedJob, WEBHOOK_SECRET } from '../support/billing';
import { hubKey } from '../support/crm';
import { fakePlatform } from '../support/einvoicePlatform';
import { stripeEvent } from '../support/fakeStripe';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg } from '../support/vr';
import { eventually } from '../support/wait';
import { customerOf, invoicingOrg, issued } from '../core/invoices/support';

/**
 * The reconciliation (the clock's relay, every minute): accepted work whose job never reached Redis, completed
 * without it, or failed through no fault of its own is given a job that runs, and is applied once. Workers are off
 * while the test leaves each item in that state, as a dead web or worker dyno would.
 */
describe('the reconciliation of accepted work', () => {
  let stack: TestStack;
  let workers: WorkerPool | null = null;
  const platform = fakePlatform();
  beforeAll(async () => {
    const url = await platform.start();
    stack = await startStack({
      workers: false,
      env: {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        EINVOICE_PLATFORM_URL: url,
        EINVOICE_PLATFORM_TOKEN: 'platform-token',
        EINVOICE_PLATFORM_NAME: 'test-pdp',
      },
    });
  });
  afterAll(async () => {
    await workers?.close();
    await stack.close();
    await platform.close();
  });

  const sql = <T extends object>(text: string, params: unknown[] = []) =>
    stack.services.orm.em.fork().execute<T[]>(text, params);
  /** Takes the job waiting in the queue, as a worker would, and ends it as `end` says: its worker never runs it. */
  async function endJob<P>(def: QueueDefinition<P>, jobId: string, end: 'fail' | 'complete', reason = STALLED_REASON) {
    const worker = new Worker(def.name, null, {
      connection: bullConnection(stack.config),
      prefix: stack.services.queues.prefix,
      autorun: false,
      maxStalledCount: Number.MAX_SAFE_INTEGER,
    });
    try {
      const job = await worker.getNextJob('test');
      expect(job?.id).toBe(jobId);
      if (end === 'fail') await job!.moveToFailed(new UnrecoverableError(reason), 'test');
      else await job!.moveToCompleted('done without its work', 'test', false);
    } finally {
      await worker.close();
    }
  }
  const removeJob = async <P>(def: QueueDefinition<P>, jobId: string) =>
    expect(await stack.services.queues.get(def).remove(jobId)).toBe(1);

  it('runs every accepted item left without a running job, once, and leaves jobs that failed on their own failed', async () => {
    // Stripe: one event whose job never reached Redis, one whose job stalled past the limit of an older worker, one
    // whose job failed on its own (left to Stripe's redelivery).
    const events = ['lost', 'stalled', 'own'].map((k) =>
      stripeEvent(
        'customer.updated',
        { id: `cus_${k}`, object: 'customer' },
        { id: `evt_redrive_${k}_${Date.now().toString(36)}` },
      ),
    );
    for (const event of events) expect((await deliver(stack, event)).status).toBe(200);
    const [lost, stalled, own] = events.map((e) => stripeEventJobId(e.id as string));
    await removeJob(stripeEventsQueue, lost);
    await endJob(stripeEventsQueue, stalled, 'fail');
    await endJob(stripeEventsQueue, own, 'fail', 'No such customer: cus_own');
    await sql(`update stripe_events set received_at = received_at - interval '1 minute'`);

    // A CRM import whose job never reached Redis.
    const seller = await invoicingOrg(stack);
    const key = await hubKey(stack, seller);
    const records = Array.from({ length: 20 }, (_, i) => ({ externalId: `redrive-${i}`, name: `Client ${i}` }));
    const imported = await stack.http
      .post('/api/public/hub/customers/bulk')
      .set('X-Server-API-Key', key)
      .send({ records });
    expect(imported.status).toBe(202);
    await removeJob(crmImportQueue, `crm-import.${imported.body.id}`);
    await sql(`update crm_imports set created_at = created_at - interval '1 minute'`);

    // An e-invoice whose job failed without its failure hook (the worker died in the hook).
    const invoice = await issued(stack, seller, (await customerOf(stack, seller)).id);
    expect((await stack.http.post(`/api/invoices/${invoice.id}/einvoice/submit`).set(seller.auth)).status).toBe(202);
    await endJob(einvoiceQueue, `einvoice.submit.${invoice.id}`, 'fail');
    await sql(`update inv_einvoice_submissions set updated_at = updated_at - interval '1 minute'`);

    // A mail whose job completed without recording it (the outbox row still queued).
    const em = stack.services.orm.em.fork();
    const mail = composeMail(em, stack.services, {
      to: 'redrive@example.test',
      template: 'broadcast',
      data: { subject: 'Hello', text: 'Hi' },
    });
    await em.flush();
    await dispatchMails(stack.services, [mail]);
    await endJob(mailQueue, mail.id, 'complete');
    await sql(`update mail_messages set created_at = created_at - interval '1 minute' where id = ?`, [mail.id]);

    // Telemetry, whose job is the batch's only record: one failed by stalling, one on its own.
    const vr = await vrOrg(stack, 1);
    const room = await createRoom(stack, vr.admin, { participantIds: [vr.members[0].user.id] });
    const sessionId = (await stack.http.post(`/rooms/${room.id}/host`).set(vr.members[0].auth).expect(201)).body
      .id as string;
    const batch = async (label: string) => {
      await stack.http
        .post(`/sessions/${sessionId}/telemetry`)
        .set(vr.members[0].auth)
        .set('Idempotency-Key', label)
        .send({ events: [{ type: 'marker', label, detail: '' }] })
        .expect(202);
      return (await stack.services.queues.get(telemetryQueue).getJobs(['waiting'])).find(
        (j) => j.data.batchKey === label,
      )!.id!;
    };
    await endJob(telemetryQueue, await batch('stalled-batch'), 'fail');
    const ownBatch = await batch('own-batch');
    await endJob(telemetryQueue, ownBatch, 'fail', 'invalid input syntax for type uuid');

    // The clock's relay, then the workers.
    await stack.services.queues.add(stagedJobsRelayQueue, { slot: 'redrive' }, { jobId: 'staged-jobs.redrive' });
    workers = startWorkers(stack.services);
    const relay = await finishedJob(stack, stagedJobsRelayQueue, 'staged-jobs.redrive');
    expect(relay.returnvalue).toEqual({
      jobs: 0,
      mails: 1,
      stripeEvents: 2,
      imports: 1,
      einvoices: 1,
      failedJobs: 1,
      webhooks: 0,
    });

    await eventually(
      async () =>
        (await sql<{ n: number }>(`select count(*)::int as n from stripe_events where processed_at is not null`))[0]
          .n === 2,
      { what: 'the two Stripe events applied' },
    );
    expect(await sql(`select id from stripe_events where processed_at is null`)).toEqual([{ id: events[2].id }]);
    expect(await stack.services.queues.get(stripeEventsQueue).getJobState(own)).toBe('failed');
    await eventually(
      async () =>
        (await stack.http.get(`/api/public/hub/imports/${imported.body.id}`).set('X-Server-API-Key', key)).body
          .status === 'completed',
      { what: 'the import completed' },
    );
    expect(
      (await stack.http.get(`/api/public/hub/imports/${imported.body.id}`).set('X-Server-API-Key', key)).body,
    ).toMatchObject({ created: 20, failed: 0 });
    await eventually(
      async () =>
        (await stack.http.get(`/api/invoices/${invoice.id}/einvoice`).set(seller.auth)).body.status === 'submitted',
      { what: 'the e-invoice submitted' },
    );
    expect(platform.posts.filter((p) => p.body.number === invoice.number)).toHaveLength(1);
    await eventually(
      async () => (await stack.services.orm.em.fork().findOne(MailMessage, { id: mail.id }))?.status === 'kept',
      { what: 'the mail handled' },
    );
    await eventually(
      async () => (await sql(`select 1 from vr_telemetry_batches where batch_key = 'stalled-batch'`)).length === 1,
      { what: 'the stalled batch stored' },
    );
    expect(await sql(`select 1 from vr_telemetry_batches where batch_key = 'own-batch'`)).toEqual([]);
    expect(await stack.services.queues.get(telemetryQueue).getJobState(ownBatch)).toBe('failed');
  });
});
