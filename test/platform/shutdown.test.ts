import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { MailMessage } from '../../entities/platform/mail';
import { composeMail, dispatchMails } from '../../domain/platform/mail';
import { mailQueue } from '../../queues/identity';
import { startWorkers } from '../../workers/main';
import { startSmtp } from '../support/smtp';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { scaled } from '../support/timeScale';

/** A worker dyno receiving SIGTERM (Heroku restarts, deploys) finishes its job and loses none of the others. */
describe('worker shutdown on SIGTERM', () => {
  let stack: TestStack;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp({ delayMs: 1500 });
    stack = await startStack({ workers: false, env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await stack.close();
    await smtp.close();
  });

  // One process (node with tsx's loader, no tsx CLI in between): the signal reaches the worker itself, and a
  // failed test cannot leave it running behind the run.
  let dyno: ChildProcess | undefined;
  function startWorkerDyno(): ChildProcess {
    return (dyno = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
      env: { ...process.env, ...stack.env, WORKER_CONCURRENCY: '1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    }));
  }
  afterEach(() => {
    if (dyno && dyno.exitCode === null && dyno.signalCode === null) dyno.kill('SIGKILL');
  });

  it(
    'finishes the running job, leaves the waiting ones for the next worker',
    async () => {
      const em = stack.services.orm.em.fork();
      const mails = Array.from({ length: 4 }, (_, i) =>
        composeMail(em, stack.services, {
          to: `sigterm${i}@example.test`,
          template: 'broadcast',
          data: { subject: `n${i}`, text: 'hi' },
        }),
      );
      await em.flush();
      await dispatchMails(stack.services, mails);

      const dyno = startWorkerDyno();
      await eventually(() => smtp.started >= 1, { timeoutMs: 20_000, what: 'the first mail to reach SMTP' });
      dyno.kill('SIGTERM');
      const [code] = await once(dyno, 'exit');
      expect(code).toBe(0);

      // The in-flight mail was delivered before the process exited; the others are still queued, not lost.
      expect(smtp.received).toHaveLength(1);
      const counts = await stack.services.queues
        .get(mailQueue)
        .getJobCounts('waiting', 'active', 'completed', 'failed');
      expect(counts).toMatchObject({ active: 0, completed: 1, failed: 0 });
      expect(counts.waiting).toBe(3);

      // The next worker sends the rest, each exactly once.
      const pool = startWorkers(stack.services, ['mail']);
      try {
        await eventually(
          async () =>
            (await em.fork().count(MailMessage, { id: { $in: mails.map((m) => m.id) }, status: 'sent' })) === 4,
          { timeoutMs: 20_000, what: 'all mails sent' },
        );
      } finally {
        await pool.close();
      }
      expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(mails.map((m) => m.to).sort());
    },
    scaled(60_000),
  );
});
