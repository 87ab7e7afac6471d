import { v7 as uuidv7 } from 'uuid';
import { firstIdAt } from '../../domain/notifications/pruneDeliveries';
import { deliveriesPruneQueue } from '../../queues/notifications';
import { createAccount, type Account } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';

const DAY = 86_400_000;

/** The nightly prune: delivery records past DELIVERY_RETENTION_DAYS go, the rest (and unprocessed deliveries) stay. */
describe('deliveries prune', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ env: { DELIVERY_RETENTION_DAYS: '10' }, workers: ['deliveries-prune'] });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const sql = <T extends object>(text: string, params: unknown[] = []) =>
    stack.services.orm.em.getConnection().execute<T[]>(text, params);
  const idDaysAgo = (days: number) => uuidv7({ msecs: Date.now() - days * DAY });

  async function hubDelivery(daysAgo: number): Promise<string> {
    const id = idDaysAgo(daysAgo);
    const at = new Date(Date.now() - daysAgo * DAY);
    await sql(
      `insert into hub_deliveries (id, tenant_id, module, event, status, attempts, first_attempt_at, last_attempt_at, delivered_at) values (?, ?, 'core', 'test.event', 'delivered', 1, ?, ?, ?)`,
      [id, owner.tenantId, at, at, at],
    );
    return id;
  }

  async function githubDelivery(daysAgo: number, processed: boolean): Promise<string> {
    const id = idDaysAgo(daysAgo);
    const at = new Date(Date.now() - daysAgo * DAY);
    await sql(
      `insert into work_github_deliveries (id, tenant_id, created_at, delivery_id, event, payload, processed_at, outcome) values (?, ?, ?, ?, 'issues', '{"big":"payload"}', ?, ?)`,
      [id, owner.tenantId, at, `delivery-${id}`, processed ? at : null, processed ? 'applied' : null],
    );
    return id;
  }

  it('orders ids by time: the first id of a moment sorts above every id made before it', () => {
    const at = new Date('2026-06-01T12:00:00.000Z');
    expect(uuidv7({ msecs: at.getTime() - 1 }) < firstIdAt(at)).toBe(true);
    expect(firstIdAt(at) <= uuidv7({ msecs: at.getTime() })).toBe(true);
  });

  it('deletes hub attempts and processed GitHub deliveries past the retention, keeps the rest', async () => {
    const oldHub = await Promise.all([hubDelivery(40), hubDelivery(11)]);
    const recentHub = await hubDelivery(9);
    const oldProcessed = await githubDelivery(30, true);
    const oldUnprocessed = await githubDelivery(30, false);
    const recentProcessed = await githubDelivery(2, true);

    const job = await stack.services.queues.add(
      deliveriesPruneQueue,
      { slot: 'test' },
      { jobId: 'deliveries-prune-test' },
    );
    await eventually(async () => (await stack.services.queues.get(deliveriesPruneQueue).getJob(job.id!))?.finishedOn, {
      what: 'the prune job',
    });

    const hubIds = (
      await sql<{ id: string }>('select id from hub_deliveries where tenant_id = ?', [owner.tenantId])
    ).map((r) => r.id);
    expect(hubIds).toEqual([recentHub]);
    expect(oldHub.some((id) => hubIds.includes(id))).toBe(false);
    const githubIds = (
      await sql<{ id: string }>('select id from work_github_deliveries where tenant_id = ? order by id', [
        owner.tenantId,
      ])
    ).map((r) => r.id);
    expect(githubIds.sort()).toEqual([oldUnprocessed, recentProcessed].sort());
    expect(githubIds).not.toContain(oldProcessed);
  });
});
