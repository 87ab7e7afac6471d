import { MailMessage } from '../../entities/platform/mail';
import { accountLinkQueue, mailQueue } from '../../queues/identity';
import { Worker } from 'bullmq';
import { bullConnection } from '../../lib/redis';
import { stallDelayMs, startWorkers, type WorkerPool } from '../../workers/main';
import { createAccount } from '../support/factories';
import { startSmtp } from '../support/smtp';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Jobs enqueued by a route (POST /auth/forgot-password queues a mail) are processed by the workers, retried
 * with backoff after a failure, and a job that exhausts its attempts stays visible (failed set, dashboard). A job
 * whose worker died in it runs again elsewhere within seconds, however often it happens.
 */
describe('background jobs', () => {
  async function withSmtp(
    options: Parameters<typeof startSmtp>[0],
    test: (stack: TestStack, smtp: Awaited<ReturnType<typeof startSmtp>>) => Promise<void>,
  ) {
    const smtp = await startSmtp(options);
    const stack = await startStack({ env: { SMTP_URL: smtp.url } });
    try {
      await test(stack, smtp);
    } finally {
      await stack.close();
      await smtp.close();
    }
  }

  const mailTo = (stack: TestStack, to: string) =>
    stack.services.orm.em.fork().findOne(MailMessage, { to, template: 'reset_password' });

  it('processes a job a route enqueued', () =>
    withSmtp({}, async (stack, smtp) => {
      const account = await createAccount(stack);
      expect((await stack.http.post('/auth/forgot-password').send({ email: account.email })).status).toBe(202);
      const mail = await eventually(
        async () => (await mailTo(stack, account.email))?.status === 'sent' && mailTo(stack, account.email),
        { what: 'mail sent' },
      );
      expect(mail).toMatchObject({ status: 'sent', to: account.email });
      expect(smtp.received.map((m) => m.to[0])).toEqual([account.email]);
    }));

  it('retries a job after a thrown error, then succeeds', () =>
    withSmtp({ rejectFirst: 2 }, async (stack, smtp) => {
      const account = await createAccount(stack);
      await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
      await eventually(async () => (await mailTo(stack, account.email))?.status === 'sent', {
        what: 'mail sent after retries',
      });
      expect(smtp.started).toBe(3);
      expect(smtp.received).toHaveLength(1);
      // The outbox row says 'sent' before BullMQ moves the job to completed.
      const [job] = await eventually(
        () =>
          stack.services.queues
            .get(mailQueue)
            .getJobs(['completed'])
            .then((jobs) => (jobs.length ? jobs : null)),
        { what: 'the completed job' },
      );
      expect(job.attemptsMade).toBe(3);
    }));

  it('keeps a job that exhausted its attempts visible as failed', () =>
    withSmtp({ reject: true }, async (stack) => {
      const account = await createAccount(stack);
      const admin = await createAccount(stack, { platformAdmin: true });
      await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
      const queue = stack.services.queues.get(mailQueue);
      const [failed] = await eventually(() => queue.getJobs(['failed']).then((jobs) => (jobs.length ? jobs : null)), {
        what: 'a failed job',
      });
      expect(failed.attemptsMade).toBe(mailQueue.defaults.attempts);
      expect(failed.failedReason).toMatch(/mailbox unavailable/);
      // The outbox row is marked by the processor's failed hook, which runs inside the last attempt, before
      // BullMQ records the failure: a job that shows failed has its row marked already.
      expect(await mailTo(stack, account.email)).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(/mailbox unavailable/),
      });
      // Operators see it in the dashboard's API.
      const board = await stack.http.get(`/admin/queues/api/queues?activeQueue=mail&status=failed`).set(admin.auth);
      expect(board.status).toBe(200);
      const queueView = board.body.queues.find((q: { name: string }) => q.name === 'mail');
      expect(queueView.counts.failed).toBe(1);
    }));

  /** A worker process that takes the queued reset mail's job and dies in it: nothing renews its lock. */
  async function takenByADyingWorker(jobId: string, token: string, dying: Worker): Promise<void> {
    const taken = await dying.getNextJob(token);
    expect(taken?.id).toBe(jobId);
  }

  async function queuedResetMail(stack: TestStack) {
    const account = await createAccount(stack);
    await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
    const queue = stack.services.queues.get(mailQueue);
    const job = await eventually(
      async () => {
        const mail = await mailTo(stack, account.email);
        return mail && (await queue.getJob(mail.id));
      },
      { what: 'the queued reset mail' },
    );
    return { account, queue, jobId: job.id! };
  }

  it('runs a job whose process died in it again, however often, after a bounded backoff: a stall is never a failure', async () => {
    const smtp = await startSmtp({});
    // Only the link requests are worked at first: the reset mail they queue waits.
    const stack = await startStack({ workers: [accountLinkQueue.name], env: { SMTP_URL: smtp.url } });
    const dying = new Worker(mailQueue.name, null, {
      connection: bullConnection(stack.config),
      prefix: stack.services.queues.prefix,
      lockDuration: 200,
      stalledInterval: 100,
      maxStalledCount: Number.MAX_SAFE_INTEGER,
      autorun: false,
    });
    let mailWorker: WorkerPool | null = null;
    try {
      const { account, queue, jobId } = await queuedResetMail(stack);
      // Three deaths in it; the stalled check (the dying worker's, configured as the suite's) puts it back each time.
      void dying.startStalledCheckTimer();
      for (let death = 1; death <= 3; death++) {
        await takenByADyingWorker(jobId, `death-${death}`, dying);
        await eventually(
          async () =>
            (await queue.getJob(jobId))?.stalledCounter === death && (await queue.getJobState(jobId)) === 'waiting',
          { what: `the job back after death ${death}` },
        );
      }
      await dying.close();
      mailWorker = startWorkers(stack.services, ['mail']);
      const startedAt = Date.now();
      // Its third return waits stallDelayMs(3) before it runs, then it runs as any job: sent once.
      await eventually(async () => (await queue.getJobState(jobId)) === 'delayed', { what: 'the job backing off' });
      await eventually(async () => (await mailTo(stack, account.email))?.status === 'sent', {
        timeoutMs: 15_000,
        what: 'the mail sent',
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(stallDelayMs(3) - 100);
      expect(await queue.getJobState(jobId)).toBe('completed');
      expect(smtp.received).toHaveLength(1);
      expect([stallDelayMs(1), stallDelayMs(2), stallDelayMs(3), stallDelayMs(50)]).toEqual([0, 1000, 2000, 60_000]);
    } finally {
      await dying.close();
      await mailWorker?.close();
      await stack.close();
      await smtp.close();
    }
  });

  it("takes a dead worker's job again within about 1.25x JOB_LOCK_MS", async () => {
    const smtp = await startSmtp({});
    const stack = await startStack({
      workers: [accountLinkQueue.name],
      env: { SMTP_URL: smtp.url, JOB_LOCK_MS: '1000' },
    });
    const dying = new Worker(mailQueue.name, null, {
      connection: bullConnection(stack.config),
      prefix: stack.services.queues.prefix,
      lockDuration: stack.config.JOB_LOCK_MS,
      autorun: false,
    });
    let mailWorker: WorkerPool | null = null;
    try {
      const { account, jobId } = await queuedResetMail(stack);
      await takenByADyingWorker(jobId, 'dies', dying);
      const diedAt = Date.now();
      mailWorker = startWorkers(stack.services, ['mail']);
      await eventually(async () => (await mailTo(stack, account.email))?.status === 'sent', {
        intervalMs: 25,
        timeoutMs: 10_000,
        what: 'the mail sent by the live worker',
      });
      const recoveredMs = Date.now() - diedAt;
      console.info(`a dead worker's job ran again ${recoveredMs} ms after its death (JOB_LOCK_MS 1000)`);
      expect(recoveredMs).toBeLessThan(2500);
      expect(smtp.received).toHaveLength(1);
    } finally {
      await dying.close();
      await mailWorker?.close();
      await stack.close();
      await smtp.close();
    }
  });
});
