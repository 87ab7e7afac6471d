import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { UnrecoverableError } from 'bullmq';
import pino from 'pino';
import { notificationEvents, type NotifyingModule } from '../../domain/notifications/events';
import { notify } from '../../domain/notifications/notify';
import { recordHubDelivery } from '../../domain/notifications/recordHubDelivery';
import { newId } from '../../entities/base';
import { createServices, type Services } from '../../domain/services';
import { loadConfig } from '../../lib/config';
import { createRedis } from '../../lib/redis';
import { hubNotificationsQueue, type HubNotification } from '../../queues/notifications';
import { hubNotificationsProcessor } from '../../workers/notifications/hubNotifications';
import { createAccount } from '../support/factories';
import { Queues } from '../../queues/queues';
import { finishedJob } from '../support/billing';
import { signedWith, startFakeHub, type FakeHub } from '../support/hub';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg } from '../support/vr';
import { eventually } from '../support/wait';

const modules = Object.keys(notificationEvents) as NotifyingModule[];
const secretOf = (module: string) => `${module}-hub-secret`;
const secrets = Object.fromEntries(modules.map((m) => [`${m.toUpperCase()}_WEBHOOK_SECRET`, secretOf(m)]));

/** A logger whose warnings about hub notifications the test can read. */
function captureLogger() {
  const lines: { msg: string; modules?: string[]; err?: string }[] = [];
  const keep = (line: (typeof lines)[number]) => /hub notifications/.test(line.msg) && lines.push(line);
  const logger = pino(
    { level: 'warn' },
    new Writable({ write: (chunk: Buffer, _enc, done) => (keep(JSON.parse(chunk.toString())), done()) }),
  );
  return { logger, lines };
}

describe('hub notifications of every module', () => {
  let hub: FakeHub;
  let stack: TestStack;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({ env: { HUB_URL: hub.url, ...secrets }, workers: ['hub-notifications'] });
  });
  afterAll(async () => {
    await stack.close();
    await hub.close();
  });

  /** Knowledge, core, cloud and rh declare their event names when they land; until then any name goes here. */
  const emit = (services: Services, module: NotifyingModule, event: string, tenantId: string) =>
    notify(services, module, [{ event: event as never, tenantId, data: { probe: event } }]);
  const queue = () => stack.services.queues.get(hubNotificationsQueue);
  const allJobs = async () =>
    (await queue().getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).filter(Boolean);
  const jobOf = (event: string) =>
    eventually(async () => (await allJobs()).find((j) => j.data.event === event), { what: `the ${event} job` });

  it("reaches <HUB_URL>/<module>/notify with the module's secret and a valid signature", async () => {
    const tenantId = '0190c2d4-0000-7000-8000-000000000001';
    for (const module of modules.filter((m) => m !== 'vr'))
      await emit(stack.services, module, `${module}.probe`, tenantId);
    // VR goes through the same path from its real routes.
    const org = await vrOrg(stack, 0);
    const room = await createRoom(stack, org.admin);

    for (const module of modules) {
      const delivery = await eventually(() => hub.received.find((r) => r.path === `/${module}/notify`), {
        what: `a ${module} notification`,
      });
      expect(signedWith(delivery, secretOf(module))).toBe(true);
      for (const other of modules.filter((m) => m !== module))
        expect(signedWith(delivery, secretOf(other))).toBe(false);
      expect(delivery.headers['content-type']).toMatch(/application\/json/);
      expect(delivery.body).toMatchObject({
        id: expect.any(String),
        module,
        event: expect.any(String),
        occurredAt: expect.any(String),
        tenantId: expect.any(String),
        data: expect.any(Object),
      });
    }
    expect(hub.received.find((r) => r.path === '/core/notify')!.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      module: 'core',
      event: 'core.probe',
      occurredAt: expect.any(String),
      tenantId,
      data: { probe: 'core.probe' },
    });
    // VR keeps its fields: the room, session and user ids at the top level.
    expect(hub.received.find((r) => r.path === '/vr/notify')!.body).toEqual({
      id: expect.any(String),
      module: 'vr',
      event: 'room.opened',
      occurredAt: expect.any(String),
      tenantId: org.admin.tenantId,
      roomId: room.id,
      sessionId: null,
      userId: null,
      data: { name: 'Fire drill', simulation: 'fire-safety-101' },
    });
  });

  it('retries a failing hub briefly, then drops the notification (failed in the dashboard)', async () => {
    hub.status = 500;
    const before = hub.attempts;
    await emit(stack.services, 'rh', 'rh.failing', 'tenant');
    const done = await finishedJob(stack, hubNotificationsQueue, (await jobOf('rh.failing')).id!);
    expect(await done.getState()).toBe('failed');
    expect(done.attemptsMade).toBe(3);
    expect(hub.attempts - before).toBe(3);

    // A refusal (4xx) will not get better: dropped after one attempt.
    hub.status = 400;
    const beforeRefusal = hub.attempts;
    await emit(stack.services, 'cloud', 'cloud.refused', 'tenant');
    const final = await finishedJob(stack, hubNotificationsQueue, (await jobOf('cloud.refused')).id!);
    expect(await final.getState()).toBe('failed');
    expect(hub.attempts - beforeRefusal).toBe(1);
    hub.status = 204;
  });

  it('keeps a delivered notification delivered, and POSTs it no more when its job runs again (a stall after the POST)', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const tenantId = '0190c2d4-0000-7000-8000-000000000002';
    const note: HubNotification = {
      id: newId(),
      module: 'core',
      event: 'core.replayed',
      occurredAt: new Date().toISOString(),
      tenantId,
      data: {},
    };
    const job = { id: note.id, attemptsMade: 0, opts: { attempts: 3 } } as never;
    const row = async () =>
      (await stack.http.get(`/admin/deliveries/hub?tenantId=${tenantId}`).set(admin.auth).expect(200)).body.items.find(
        (d: { id: string }) => d.id === note.id,
      );
    await hubNotificationsProcessor.perform(note, { services: stack.services, job });
    const delivered = await row();
    expect(delivered).toMatchObject({ status: 'delivered', attempts: 1, deliveredAt: expect.any(String) });
    const before = hub.attempts;
    // The same job again; the hub would refuse it now (e.g. a duplicate id): it is not asked.
    hub.status = 400;
    try {
      await hubNotificationsProcessor.perform(note, { services: stack.services, job });
    } finally {
      hub.status = 204;
    }
    expect(hub.attempts).toBe(before);
    // An attempt that was in flight when the delivery was recorded, and failed, changes nothing either.
    await recordHubDelivery(stack.services, note, {
      status: 'failed',
      attempts: 2,
      httpStatus: 400,
      error: 'hub answered 400',
    });
    expect(await row()).toEqual(delivered);
  });

  it('never follows a redirect of the hub: the secret goes nowhere else, and the notification fails at once, saying why', async () => {
    const admin = await createAccount(stack, { platformAdmin: true });
    const elsewhere = await startFakeHub();
    const redirecting = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(307, { Location: `${elsewhere.url}/collect` }).end());
    });
    redirecting.listen(0, '127.0.0.1');
    await once(redirecting, 'listening');
    try {
      const services = {
        ...stack.services,
        config: {
          ...stack.services.config,
          HUB_URL: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
        },
      };
      const tenantId = '0190c2d4-0000-7000-8000-000000000003';
      const note: HubNotification = {
        id: newId(),
        module: 'vr',
        event: 'room.opened',
        occurredAt: new Date().toISOString(),
        tenantId,
        data: {},
      };
      const job = { id: note.id, attemptsMade: 0, opts: { attempts: 3 } } as never;
      await expect(hubNotificationsProcessor.perform(note, { services, job })).rejects.toBeInstanceOf(
        UnrecoverableError,
      );
      expect(elsewhere.attempts).toBe(0);
      const rows = (await stack.http.get(`/admin/deliveries/hub?tenantId=${tenantId}`).set(admin.auth).expect(200)).body
        .items;
      expect(rows).toEqual([
        expect.objectContaining({
          id: note.id,
          status: 'failed',
          attempts: 1,
          lastStatus: 307,
          deliveredAt: null,
          lastError: expect.stringMatching(/redirect.*not followed/),
        }),
      ]);
    } finally {
      redirecting.close();
      redirecting.closeAllConnections();
      await elsewhere.close();
    }
  });

  it('skips a module without its secret: nothing enqueued, one warning at start naming it', async () => {
    const { logger, lines } = captureLogger();
    const config = loadConfig({ ...stack.env, VR_WEBHOOK_SECRET: '', CORE_WEBHOOK_SECRET: '' });
    const services = await createServices(config, logger);
    try {
      await emit(services, 'core', 'core.unsigned', 'tenant');
      await emit(services, 'vr', 'room.closed', 'tenant-without-secret');
      expect(
        (await allJobs()).filter(
          (j) => j.data.event === 'core.unsigned' || j.data.tenantId === 'tenant-without-secret',
        ),
      ).toEqual([]);
      // One warning naming every module that sends notifications but has no secret.
      expect(lines).toEqual([
        expect.objectContaining({
          modules: ['vr', 'core'],
          msg: expect.stringMatching(/VR_WEBHOOK_SECRET.*CORE_WEBHOOK_SECRET/),
        }),
      ]);
    } finally {
      await services.close();
    }
    const quiet = captureLogger();
    const configured = await createServices(loadConfig(stack.env), quiet.logger);
    await configured.close();
    expect(quiet.lines).toEqual([]);
  });

  it('logs a failure to enqueue and never surfaces it', async () => {
    const { logger, lines } = captureLogger();
    const deadRedis = createRedis(
      { REDIS_URL: 'redis://127.0.0.1:1', REDIS_TIMEOUT_MS: 500 },
      { enableAutoPipelining: false, retryStrategy: () => null },
    );
    const queues = new Queues(deadRedis, stack.services.queues.prefix);
    try {
      await expect(
        emit({ ...stack.services, queues, logger }, 'knowledge', 'knowledge.lost', 'tenant'),
      ).resolves.toBeUndefined();
      expect(lines).toEqual([
        expect.objectContaining({ msg: 'hub notifications not enqueued', err: expect.any(String) }),
      ]);
    } finally {
      await queues.close();
    }
  });
});
