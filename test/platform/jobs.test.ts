import { MailMessage } from '../../entities/identity/mail';
import { accountLinkQueue, mailQueue } from '../../queues/identity';
import { MAX_STALLS, startWorkers, type WorkerPool } from '../../workers/main';
import { createAccount } from '../support/factories';
import { startSmtp } from '../support/smtp';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

/**
 * Jobs enqueued by a route (POST /auth/forgot-password queues a mail) are processed by the workers, retried
 * with backoff after a failure, and a job that exhausts its attempts stays visible (failed set, dashboard).
 */
describe('background jobs', () => {
  async function withSmtp(options: Parameters<typeof startSmtp>[0], test: (stack: TestStack, smtp: Awaited<ReturnType<typeof startSmtp>>) => Promise<void>) {
    const smtp = await startSmtp(options);
    const stack = await startStack({ env: { SMTP_URL: smtp.url } });
    try {
      await test(stack, smtp);
    } finally {
      await stack.close();
      await smtp.close();
    }
  }

  const mailTo = (stack: TestStack, to: string) => stack.services.orm.em.fork().findOne(MailMessage, { to, template: 'reset_password' });

  it('processes a job a route enqueued', () =>
    withSmtp({}, async (stack, smtp) => {
      const account = await createAccount(stack);
      expect((await stack.http.post('/auth/forgot-password').send({ email: account.email })).status).toBe(202);
      const mail = await eventually(async () => (await mailTo(stack, account.email))?.status === 'sent' && mailTo(stack, account.email), { what: 'mail sent' });
      expect(mail).toMatchObject({ status: 'sent', to: account.email });
      expect(smtp.received.map((m) => m.to[0])).toEqual([account.email]);
    }));

  it('retries a job after a thrown error, then succeeds', () =>
    withSmtp({ rejectFirst: 2 }, async (stack, smtp) => {
      const account = await createAccount(stack);
      await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
      await eventually(async () => (await mailTo(stack, account.email))?.status === 'sent', { what: 'mail sent after retries' });
      expect(smtp.started).toBe(3);
      expect(smtp.received).toHaveLength(1);
      // The outbox row says 'sent' before BullMQ moves the job to completed.
      const [job] = await eventually(() => stack.services.queues.get(mailQueue).getJobs(['completed']).then((jobs) => (jobs.length ? jobs : null)), { what: 'the completed job' });
      expect(job.attemptsMade).toBe(3);
    }));

  it('keeps a job that exhausted its attempts visible as failed', () =>
    withSmtp({ reject: true }, async (stack) => {
      const account = await createAccount(stack);
      const admin = await createAccount(stack, { platformAdmin: true });
      await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
      const queue = stack.services.queues.get(mailQueue);
      const [failed] = await eventually(() => queue.getJobs(['failed']).then((jobs) => (jobs.length ? jobs : null)), { what: 'a failed job' });
      expect(failed.attemptsMade).toBe(mailQueue.defaults.attempts);
      expect(failed.failedReason).toMatch(/mailbox unavailable/);
      // The outbox row is marked by the processor's failed hook, which runs inside the last attempt, before
      // BullMQ records the failure: a job that shows failed has its row marked already.
      expect(await mailTo(stack, account.email)).toMatchObject({ status: 'failed', error: expect.stringMatching(/mailbox unavailable/) });
      // Operators see it in the dashboard's API.
      const board = await stack.http.get(`/admin/queues/api/queues?activeQueue=mail&status=failed`).set(admin.auth);
      expect(board.status).toBe(200);
      const queueView = board.body.queues.find((q: { name: string }) => q.name === 'mail');
      expect(queueView.counts.failed).toBe(1);
    }));

  it('fails a job that stalled past the limit (its process died in it twice) through the processor\'s failed hook', async () => {
    const smtp = await startSmtp({});
    // Only the link requests are worked at first: the reset mail they queue waits.
    const stack = await startStack({ workers: [accountLinkQueue.name], env: { SMTP_URL: smtp.url } });
    let mailWorker: WorkerPool | null = null;
    try {
      const account = await createAccount(stack);
      await stack.http.post('/auth/forgot-password').send({ email: account.email }).expect(202);
      const queue = stack.services.queues.get(mailQueue);
      const job = await eventually(async () => {
        const mail = await mailTo(stack, account.email);
        return mail && (await queue.getJob(mail.id));
      }, { what: 'the queued reset mail' });
      // What BullMQ's stalled checker leaves after the second death: the stall count past the limit, the job waiting.
      await stack.services.redis.hset(queue.toKey(job.id!), 'stc', MAX_STALLS + 1);
      mailWorker = startWorkers(stack.services, ['mail']);
      const [failed] = await eventually(() => queue.getJobs(['failed']).then((jobs) => (jobs.length ? jobs : null)), { what: 'the failed job' });
      expect(failed.failedReason).toBe('job stalled more than allowable limit');
      // The hook ran before the failure was recorded; the mail was not sent.
      expect(await mailTo(stack, account.email)).toMatchObject({ status: 'failed', error: expect.stringMatching(/stalled/) });
      expect(smtp.received).toHaveLength(0);
    } finally {
      await mailWorker?.close();
      await stack.close();
      await smtp.close();
    }
  });
});
