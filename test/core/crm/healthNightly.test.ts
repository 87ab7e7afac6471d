import { schedules } from '../../../cron/schedules';
import { crmHealthNightlyQueue, crmHealthQueue } from '../../../queues/crm';
import { finishedJob } from '../../support/billing';
import { makeCustomer } from '../../support/crm';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

/** The clock's nightly health pass (crm-health-nightly): every customer's score recomputed once a night. */
describe('CRM nightly health pass', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: ['crm-health', 'crm-health-nightly'] });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const settled = () =>
    eventually(
      async () =>
        Object.values(
          await stack.services.queues.get(crmHealthQueue).getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
        ).every((n) => n === 0),
      { what: 'crm-health jobs to finish' },
    );
  const computedAt = async (ids: string[]) =>
    Promise.all(
      ids.map(
        async (id) =>
          (await stack.http.get(`/api/customers/${id}/score`).set(owner.auth).expect(200)).body.computedAt as string,
      ),
    );
  const nightly = async (slot: string, jobId = slot) => {
    await stack.services.queues.add(crmHealthNightlyQueue, { slot }, { jobId });
    const job = await finishedJob(stack, crmHealthNightlyQueue, jobId);
    expect(job.failedReason).toBeUndefined();
    await settled();
    return job.returnvalue as { jobs: number };
  };

  it("recomputes every score once a night, however often the night's job runs", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await makeCustomer(stack, owner, { name: `C${i}` })).id);
    await settled();
    const schedule = schedules.find((s) => s.name === 'crm-health-nightly')!;
    const slot = 'crm-health-nightly.2025-03-01T02-30-00';
    await schedule.enqueue(stack.services, slot);
    expect((await finishedJob(stack, crmHealthNightlyQueue, slot)).returnvalue).toEqual({ jobs: 1 });
    await settled();
    const night = await computedAt(ids);

    // The night's job runs again (a retry after a failure part way, a replay after a stall): its batches are not
    // enqueued again, and no score is recomputed.
    expect(await nightly(slot, `${slot}.replay`)).toEqual({ jobs: 1 });
    expect(await computedAt(ids)).toEqual(night);

    // The next night recomputes them all.
    await nightly('crm-health-nightly.2025-03-02T02-30-00');
    const next = await computedAt(ids);
    next.forEach((at, i) => expect(Date.parse(at)).toBeGreaterThan(Date.parse(night[i])));
  });
});
