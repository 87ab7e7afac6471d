import pino from 'pino';
import { newId } from '../../entities/base';
import { MailMessage } from '../../entities/platform/mail';
import { StagedJob } from '../../entities/jobs/stagedJob';
import { relayQueuedMails } from '../../domain/platform/relayQueuedMails';
import { relayStagedJobs } from '../../domain/jobs/relayStagedJobs';
import { enqueueStaged, stageJob } from '../../domain/jobs/stageJob';
import { DependencyUnavailableError } from '../../lib/dependencies';
import { mailQueue } from '../../queues/identity';
import { hrDeparturesQueue } from '../../queues/hr';
import { finishedJob } from '../support/billing';
import { startStack, type TestStack } from '../support/stack';

/**
 * The transactional outbox: a job staged in a transaction commits or rolls back with it; the writer enqueues it
 * once committed, and what a writer left (a crash between commit and enqueue, Redis not answering) is enqueued
 * by the relay. Mails are their own outbox: a queued mail without a job is offered again under its id.
 * Workers run only the mail queue, so the other jobs stay where the relay put them.
 */
describe('Staged jobs and their relay', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack({ workers: [mailQueue.name] });
  });
  afterAll(() => stack.close());

  const state = (jobId: string) => stack.services.queues.get(hrDeparturesQueue).getJobState(jobId);
  const staged = (jobId: string) => stack.services.orm.em.fork().count(StagedJob, { jobId });
  /** Stages a job and commits it, as a writer that stops before enqueueing. */
  async function commitStaged(jobId: string, age = 0): Promise<StagedJob> {
    const em = stack.services.orm.em.fork();
    const job = stageJob(em, hrDeparturesQueue, { slot: jobId }, jobId);
    await em.flush();
    if (age) await em.nativeUpdate(StagedJob, { id: job.id }, { createdAt: new Date(Date.now() - age) });
    return job;
  }

  it('commits a job with its transaction and never enqueues one whose transaction rolled back', async () => {
    const jobId = `rollback.${newId()}`;
    await expect(
      stack.services.orm.em.fork().transactional(async (em) => {
        stageJob(em, hrDeparturesQueue, { slot: jobId }, jobId);
        await em.flush();
        throw new Error('the writer fails after staging');
      }),
    ).rejects.toThrow('the writer fails');
    expect(await staged(jobId)).toBe(0);
    await relayStagedJobs(stack.services, 0);
    expect(await state(jobId)).toBe('unknown');
  });

  it('enqueues a committed job and deletes its row; a failed enqueue leaves the row without failing the writer', async () => {
    const sent = `sent.${newId()}`;
    await enqueueStaged(stack.services, [await commitStaged(sent)]);
    expect(await state(sent)).toBe('waiting');
    expect(await staged(sent)).toBe(0);

    const kept = `kept.${newId()}`;
    const addStaged = jest
      .spyOn(stack.services.queues, 'addStaged')
      .mockRejectedValueOnce(new DependencyUnavailableError('Redis'));
    try {
      await expect(enqueueStaged(stack.services, [await commitStaged(kept)])).resolves.toBeUndefined();
    } finally {
      addStaged.mockRestore();
    }
    expect(await state(kept)).toBe('unknown');
    expect(await staged(kept)).toBe(1);
  });

  it('relays what writers left once it is older than a writer takes, and keeps it while Redis does not answer', async () => {
    const young = `young.${newId()}`;
    const old = `old.${newId()}`;
    await commitStaged(young);
    await commitStaged(old, 60_000);
    const addStaged = jest
      .spyOn(stack.services.queues, 'addStaged')
      .mockRejectedValueOnce(new DependencyUnavailableError('Redis'));
    try {
      await expect(relayStagedJobs(stack.services)).rejects.toThrow(DependencyUnavailableError);
    } finally {
      addStaged.mockRestore();
    }
    expect(await staged(old)).toBe(1);
    await relayStagedJobs(stack.services);
    expect(await state(old)).toBe('waiting');
    expect(await staged(old)).toBe(0);
    // The young one is its writer's to enqueue.
    expect(await state(young)).toBe('unknown');
    expect(await staged(young)).toBe(1);
    // Enqueued twice (the writer after all, then the relay): one job.
    await enqueueStaged(stack.services, [await commitStaged(old, 60_000)]);
    await relayStagedJobs(stack.services, 0);
    expect(await stack.services.queues.get(hrDeparturesQueue).getJobCounts('waiting')).toEqual({
      waiting: expect.any(Number),
    });
    expect(
      (await stack.services.queues.get(hrDeparturesQueue).getJobs(['waiting'])).filter((j) => j.id === old),
    ).toHaveLength(1);
  });

  it('drops, with an error in the log, a staged job of a queue that no longer exists', async () => {
    const lines: { level: number; msg: string; jobs?: string[] }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const em = stack.services.orm.em.fork();
    const gone = em.create(StagedJob, { queue: 'retired-queue', jobId: `gone.${newId()}`, payload: {} });
    await em.flush();
    await relayStagedJobs({ ...stack.services, logger }, 0);
    expect(await staged(gone.jobId)).toBe(0);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          level: 50,
          msg: 'staged jobs of unknown queues dropped',
          jobs: [`retired-queue/${gone.jobId}`],
        }),
      ]),
    );
  });

  it('offers a queued mail whose job never reached Redis again under its id, and leaves handled or recent mails alone', async () => {
    const em = stack.services.orm.em.fork();
    const mail = (status: MailMessage['status'], ageMs: number) =>
      em.create(MailMessage, {
        id: newId(),
        to: `relay.${newId().slice(-8)}@example.test`,
        template: 'broadcast',
        subject: 's',
        text: 't',
        tenantId: null,
        dedupeKey: null,
        status,
        createdAt: new Date(Date.now() - ageMs),
      });
    const lost = mail('queued', 60_000);
    const recent = mail('queued', 0);
    const kept = mail('kept', 60_000);
    await em.flush();
    expect(await relayQueuedMails(stack.services)).toBeGreaterThanOrEqual(1);
    expect((await finishedJob(stack, mailQueue, lost.id)).returnvalue).toEqual({ status: 'kept' });
    const queue = stack.services.queues.get(mailQueue);
    expect(await queue.getJobState(recent.id)).toBe('unknown');
    expect(await queue.getJobState(kept.id)).toBe('unknown');
  });
});
