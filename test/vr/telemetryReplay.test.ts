import { UnrecoverableError, Worker } from 'bullmq';
import { bullConnection } from '../../lib/redis';
import { telemetryQueue } from '../../queues/vr';
import { startWorkers, type WorkerPool } from '../../workers/main';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

/**
 * A headset retries a batch with the same Idempotency-Key until it gets a 202. `duplicate: true` must mean the
 * batch is stored or will be: when the job holding an accepted batch failed (its worker died in it twice, under an
 * older release), the retry is accepted again and the batch stored, once.
 */
describe('telemetry retried with its Idempotency-Key', () => {
  let stack: TestStack;
  let vr: VrOrg;
  let sessionId: string;
  let workers: WorkerPool | null = null;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    vr = await vrOrg(stack, 1);
    const room = await createRoom(stack, vr.admin, { participantIds: [vr.members[0].user.id] });
    sessionId = (await stack.http.post(`/rooms/${room.id}/host`).set(vr.members[0].auth).expect(201)).body.id;
  });
  afterAll(async () => {
    await workers?.close();
    await stack.close();
  });

  const send = (key: string) =>
    stack.http
      .post(`/sessions/${sessionId}/telemetry`)
      .set(vr.members[0].auth)
      .set('Idempotency-Key', key)
      .send({ events: [{ type: 'marker', label: key, detail: '' }] })
      .expect(202);
  const stored = async (key: string) =>
    (
      await stack.services.orm.em
        .fork()
        .execute<{ n: number }[]>(
          `select count(*)::int as n from vr_telemetry_events where session_id = ? and label = ?`,
          [sessionId, key],
        )
    )[0].n;

  it('answers duplicate only for a batch stored or waiting, and accepts again one whose job failed', async () => {
    expect((await send('lost-batch')).body).toMatchObject({ batchKey: 'lost-batch', duplicate: false });
    // Waiting for a worker: a replay is a duplicate.
    expect((await send('lost-batch')).body.duplicate).toBe(true);
    // Its job fails for good, as a worker that stalled past its limit failed it.
    const queue = stack.services.queues.get(telemetryQueue);
    const taker = new Worker(telemetryQueue.name, null, {
      connection: bullConnection(stack.config),
      prefix: stack.services.queues.prefix,
      autorun: false,
    });
    try {
      const job = await taker.getNextJob('test');
      expect(job?.data.batchKey).toBe('lost-batch');
      await job!.moveToFailed(new UnrecoverableError('job stalled more than allowable limit'), 'test');
    } finally {
      await taker.close();
    }
    // The headset's retry is accepted again, and the batch stored once.
    expect((await send('lost-batch')).body.duplicate).toBe(false);
    expect(await queue.getJobCounts('failed', 'waiting')).toEqual({ failed: 0, waiting: 1 });
    workers = startWorkers(stack.services, [telemetryQueue.name]);
    await eventually(async () => (await stored('lost-batch')) === 1, { what: 'the batch stored' });
    // Stored (its completed job deleted): a replay is a duplicate again and stores nothing more.
    expect((await send('lost-batch')).body.duplicate).toBe(true);
    await eventually(
      async () => Object.values(await queue.getJobCounts('waiting', 'active', 'delayed')).every((n) => n === 0),
      { what: 'the queue idle' },
    );
    expect(await stored('lost-batch')).toBe(1);
  });
});
