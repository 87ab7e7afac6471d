import { randomUUID } from 'node:crypto';
import { notify } from '../../domain/notifications/notify';
import { ChatMessage } from '../../entities/work/chat';
import { WorkGithubDelivery } from '../../entities/work/github';
import { hubNotificationsQueue } from '../../queues/notifications';
import { createAccount, type Account } from '../support/factories';
import { expectProblem } from '../support/identity';
import { startFakeHub, type FakeHub } from '../support/hub';
import { startStack, type TestStack } from '../support/stack';
import { eventually } from '../support/wait';
import { allProcessed, deliver, githubEvent, octokitSign, setSecret } from '../support/work';

describe('/admin/deliveries: inbound and outbound deliveries with their outcomes', () => {
  let hub: FakeHub;
  let stack: TestStack;
  let admin: Account;
  let owner: Account;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({
      env: { HUB_URL: hub.url, CORE_WEBHOOK_SECRET: 'core-hub-secret' },
      workers: ['github-deliveries', 'hub-notifications'],
    });
    admin = await createAccount(stack, { platformAdmin: true });
    owner = await createAccount(stack);
  });
  afterAll(async () => {
    await stack.close();
    await hub.close();
  });

  const asAdmin = (path: string) => stack.http.get(path).set(admin.auth);
  const hubRow = (id: string) => async () =>
    (await asAdmin(`/admin/deliveries/hub?tenantId=${owner.tenantId}`)).body.items.find(
      (d: { id: string }) => d.id === id,
    );
  const emit = async (event: string) => {
    await notify(stack.services, 'core', [{ event: event as never, tenantId: owner.tenantId, data: {} }]);
    const job = await eventually(
      async () =>
        (
          await stack.services.queues
            .get(hubNotificationsQueue)
            .getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])
        ).find((j) => j?.data.event === event),
      { what: `the ${event} job` },
    );
    return job.data.id;
  };

  it('lists GitHub deliveries with their outcome, and one with its payload', async () => {
    const secret = await setSecret(stack, owner);
    await stack.http
      .post('/api/work/items')
      .set(owner.auth)
      .send({ title: 'Linked', link: { provider: 'github', repository: 'acme/app', number: 1 } })
      .expect(201);
    const bodies = [
      githubEvent('issues', 'closed', 'acme/app', 1, '2026-04-01T10:00:00Z'),
      JSON.stringify({ zen: 'Design for failure.' }),
    ];
    const [s1, s2] = octokitSign(secret, bodies);
    const ids = [randomUUID(), randomUUID()];
    await deliver(stack, owner.tenantId, { body: bodies[0], event: 'issues', id: ids[0], signature: s1 }).expect(200);
    await deliver(stack, owner.tenantId, { body: bodies[1], event: 'ping', id: ids[1], signature: s2 }).expect(200);
    await allProcessed(stack, owner.tenantId);

    const list = await asAdmin(`/admin/deliveries/github?tenantId=${owner.tenantId}`).expect(200);
    expect(
      list.body.items.map((d: { deliveryId: string; status: string; event: string }) => [
        d.deliveryId,
        d.event,
        d.status,
      ]),
    ).toEqual([
      [ids[1], 'ping', 'ignored'],
      [ids[0], 'issues', 'applied'],
    ]);
    expect(
      (await asAdmin(`/admin/deliveries/github?status=applied&tenantId=${owner.tenantId}`)).body.items,
    ).toHaveLength(1);
    const detail = await asAdmin(`/admin/deliveries/github/${list.body.items[1].id}`).expect(200);
    expect(detail.body).toMatchObject({
      deliveryId: ids[0],
      action: 'closed',
      itemsChanged: 1,
      attempts: 1,
      error: null,
      payload: { action: 'closed', repository: { full_name: 'acme/app' } },
    });
    expectProblem(await asAdmin(`/admin/deliveries/github/${randomUUID()}`), 404, 'not_found');
  });

  it('lists the pending GitHub deliveries (stored, no outcome yet) of another organisation', async () => {
    const other = await createAccount(stack);
    const em = stack.services.orm.em.fork();
    const pending = em.create(WorkGithubDelivery, {
      tenantId: other.tenantId,
      deliveryId: randomUUID(),
      event: 'push',
      payload: {},
    });
    await em.flush();
    const list = await asAdmin(`/admin/deliveries/github?status=pending&tenantId=${other.tenantId}`).expect(200);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: pending.id, tenantId: other.tenantId, status: 'pending', processedAt: null }),
    ]);
    expect((await asAdmin(`/admin/deliveries/github?status=pending&tenantId=${owner.tenantId}`)).body.items).toEqual(
      [],
    );
    expect((await asAdmin(`/admin/deliveries/github?status=applied&tenantId=${other.tenantId}`)).body.items).toEqual(
      [],
    );
  });

  it('records every outbound hub notification: delivered, then failed after its retries (also failed in the dashboard)', async () => {
    const delivered = await emit('customer.created');
    expect(await eventually(hubRow(delivered))).toMatchObject({
      module: 'core',
      event: 'customer.created',
      status: 'delivered',
      attempts: 1,
      lastStatus: null,
      lastError: null,
      deliveredAt: expect.any(String),
    });

    hub.status = 503;
    const dropped = await emit('deal.won');
    const failed = await eventually(
      async () => {
        const row = await hubRow(dropped)();
        return row?.status === 'failed' && row;
      },
      { what: 'the notification dropped' },
    );
    expect(failed).toMatchObject({ attempts: 3, lastStatus: 503, lastError: 'hub answered 503', deliveredAt: null });
    // The row is written before the job's last attempt throws: BullMQ then moves the job to failed.
    const job = (await stack.services.queues.get(hubNotificationsQueue).getJob(dropped))!;
    expect(
      await eventually(async () => (await job.getState()) === 'failed', { what: 'the job failed in the dashboard' }),
    ).toBe(true);

    hub.status = 400;
    const refused = await emit('deal.lost');
    expect(
      await eventually(async () => (await hubRow(refused)())?.status === 'failed' && hubRow(refused)()),
    ).toMatchObject({ attempts: 1, lastStatus: 400 });
    hub.status = 204;

    const onlyFailed = await asAdmin(
      `/admin/deliveries/hub?status=failed&module=core&tenantId=${owner.tenantId}`,
    ).expect(200);
    expect(onlyFailed.body.items.map((d: { id: string }) => d.id).sort()).toEqual([dropped, refused].sort());
  });

  it('lists chat integration deliveries and sums everything up', async () => {
    const channel = await stack.http.post('/api/chat/channels').set(owner.auth).send({ name: 'ops' }).expect(201);
    const token = await stack.http
      .post(`/api/chat/channels/${channel.body.id}/tokens`)
      .set(owner.auth)
      .send({ label: 'Pager' })
      .expect(201);
    await stack.http.post(`/api/integrations/${token.body.token}`).send({ text: 'Disk full' }).expect(201);
    // A member's message is not a delivery.
    const em = stack.services.orm.em.fork();
    em.create(ChatMessage, {
      tenantId: owner.tenantId,
      channelId: channel.body.id,
      authorId: owner.user.id,
      author: 'Owner',
      text: 'On it',
    });
    await em.flush();
    const chat = await asAdmin(`/admin/deliveries/chat?tenantId=${owner.tenantId}`).expect(200);
    expect(chat.body.items).toEqual([
      expect.objectContaining({ channelId: channel.body.id, tokenId: token.body.id, author: 'Pager', textLength: 9 }),
    ]);

    const summary = await asAdmin('/admin/deliveries?hours=1').expect(200);
    expect(summary.body.hours).toBe(1);
    expect(summary.body.counts).toEqual(
      expect.arrayContaining([
        { direction: 'inbound', source: 'github', status: 'applied', count: 1 },
        { direction: 'inbound', source: 'github', status: 'ignored', count: 1 },
        { direction: 'inbound', source: 'chat', status: 'stored', count: 1 },
        { direction: 'outbound', source: 'hub.core', status: 'delivered', count: 1 },
        { direction: 'outbound', source: 'hub.core', status: 'failed', count: 2 },
      ]),
    );
  });

  it('is for platform administrators only', async () => {
    for (const path of [
      '/admin/deliveries',
      '/admin/deliveries/github',
      '/admin/deliveries/hub',
      '/admin/deliveries/chat',
    ]) {
      expectProblem(await stack.http.get(path).set(owner.auth), 403, 'platform_admin_required');
    }
  });
});
