import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, startFakeHub, vrOrg, type FakeHub, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { isCleanBatch, TelemetryEventBody } from '../../api/vr/dtos';
import { ingestTelemetry } from '../../domain/vr/ingestTelemetry';
import type { TelemetryJob } from '../../queues/vr';
import { SessionGate } from '../../domain/vr/store/sessionGate';
import { VrSession } from '../../entities/vr/session';
import { sweepPresence } from '../../domain/vr/sweepPresence';

describe('VR telemetry', () => {
  let stack: TestStack;
  let hub: FakeHub;
  let org: VrOrg;
  let roomId: string;
  let sessionId: string;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({ env: { TELEMETRY_GRACE_SECONDS: '1', HUB_URL: hub.url, VR_WEBHOOK_SECRET: 'secret' } });
    org = await vrOrg(stack, 1);
    const room = await createRoom(stack, org.admin, { participantIds: [org.members[0].user.id] });
    roomId = room.id;
    sessionId = (await stack.http.post(`/rooms/${roomId}/host`).set(org.members[0].auth).expect(201)).body.id;
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await stack.close();
    await hub.close();
  });

  const send = (events: unknown[], headers: Record<string, string> = {}, id = sessionId, who = org.members[0]) =>
    stack.http.post(`/sessions/${id}/telemetry`).set(who.auth).set(headers).send({ events });
  const session = async () => (await stack.http.get(`/sessions/${sessionId}`).set(org.admin.auth)).body;

  it('accepts a batch with 202 and applies it (events default to the sender)', async () => {
    const before = (await session()).eventsCount;
    const res = await send([
      { type: 'step_passed', label: 'alarm', detail: '' },
      { type: 'object_grabbed', label: 'extinguisher', detail: 'left hand' },
    ]);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ events: 2, duplicate: false, batchKey: expect.any(String) });
    const after = await eventually(async () => {
      const s = await session();
      return s.eventsCount === before + 2 && s;
    });
    expect(after.participants[0]).toMatchObject({
      userId: org.members[0].user.id,
      stepsPassed: 1,
      lastStep: 'alarm',
      eventsCount: 2,
    });
  });

  it('counts a replayed batch with the same Idempotency-Key once', async () => {
    const before = (await session()).eventsCount;
    const events = [{ type: 'object_grabbed', label: 'hose', detail: '' }];
    const first = await send(events, { 'Idempotency-Key': 'batch-42' });
    const replay = await send(events, { 'Idempotency-Key': 'batch-42' });
    expect(first.status).toBe(202);
    expect(replay.status).toBe(202);
    expect(first.body).toEqual({ batchKey: 'batch-42', events: 1, duplicate: false });
    expect(replay.body).toEqual({ batchKey: 'batch-42', events: 1, duplicate: true });
    await send([{ type: 'marker', label: 'end', detail: '' }]);
    await eventually(async () => (await session()).eventsCount === before + 2);
    // Past the edge (Redis key gone), the database still refuses the batch a second time.
    const keys = await stack.services.redis.keys(`${stack.config.REDIS_NAMESPACE}:vr:telemetry-key:*`);
    await stack.services.redis.del(...keys);
    await send(events, { 'Idempotency-Key': 'batch-42' }).expect(202);
    await send([{ type: 'marker', label: 'end-2', detail: '' }]);
    await eventually(async () => (await session()).eventsCount === before + 3);
  });

  it('applies the same job twice once (worker idempotency)', async () => {
    const job: TelemetryJob = {
      tenantId: org.admin.tenantId,
      sessionId,
      batchKey: 'replayed-job',
      senderId: org.members[0].user.id,
      receivedAt: new Date().toISOString(),
      events: [{ type: 'step_passed', label: 'exit', detail: '' }],
    };
    const before = await session();
    const first = await ingestTelemetry(stack.services.orm.em.fork(), [job, job]);
    const second = await ingestTelemetry(stack.services.orm.em.fork(), [job]);
    expect(first).toEqual({ batches: 1, duplicates: 1, events: 1 });
    expect(second).toEqual({ batches: 0, duplicates: 1, events: 0 });
    const after = await session();
    expect(after.eventsCount).toBe(before.eventsCount + 1);
    expect(after.participants[0].stepsPassed).toBe(before.participants[0].stepsPassed + 1);
  });

  it('refuses bad batches with 400 and oversized ones with 413', async () => {
    const bad = await send([{ userId: 'someone', type: '', label: 'x'.repeat(201), detail: 5 }]);
    expect(bad.status).toBe(400);
    expect([...new Set(bad.body.errors.map((e: { field: string }) => e.field))].sort()).toEqual([
      'events[0].detail',
      'events[0].label',
      'events[0].type',
      'events[0].userId',
    ]);
    expect((await send([])).status).toBe(400);
    expect((await send([{ type: 'x', label: 'y' }])).status).toBe(400);
    expect(
      (await stack.http.post(`/sessions/${sessionId}/telemetry`).set(org.members[0].auth).send({ events: 'nope' }))
        .status,
    ).toBe(400);
    expect((await stack.http.post(`/sessions/${sessionId}/telemetry`).set(org.members[0].auth).send({})).status).toBe(
      400,
    );
    const tooMany = await send(Array.from({ length: 501 }, () => ({ type: 't', label: 'l', detail: '' })));
    expect(tooMany.status).toBe(413);
    expect(tooMany.body.code).toBe('batch_too_large');
    const huge = await send([{ type: 't', label: 'l', detail: 'x'.repeat(3_000_000) }]);
    expect(huge.status).toBe(413);
    const key = await send([{ type: 't', label: 'l', detail: '' }], { 'Idempotency-Key': 'has spaces' });
    expect(key.status).toBe(400);
    expect(key.body.code).toBe('invalid_idempotency_key');
    expect(
      (
        await stack.http
          .post('/sessions/nope/telemetry')
          .set(org.members[0].auth)
          .send({ events: [{ type: 't', label: 'l', detail: '' }] })
      ).status,
    ).toBe(400);
  });

  it('refuses text PostgreSQL cannot store (NUL, unpaired surrogates)', async () => {
    const res = await send([{ type: 'ok', label: 'a\u0000b', detail: 'x\ud800' }]);
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'events[0].detail',
      'events[0].label',
    ]);
    expect((await send([{ type: 'emoji', label: '\u{1F525} fire', detail: '' }])).status).toBe(202);
  });

  // Unstorable text (NUL, unpaired surrogates) is refused by toDto before either check, see the test above.
  it('never lets the fast batch check pass an event the DTO refuses', async () => {
    const uuid = org.members[0].user.id;
    const cases: Record<string, unknown>[] = [
      { type: 'a', label: '', detail: '' },
      { userId: uuid, type: 't'.repeat(64), label: 'l'.repeat(200), detail: 'd'.repeat(2000) },
      { userId: uuid.toUpperCase(), type: 'a', label: '', detail: '' },
      { type: 't'.repeat(65), label: '', detail: '' },
      { type: '', label: '', detail: '' },
      { type: 'a', label: 'l'.repeat(201), detail: '' },
      { type: 'a', label: '', detail: 'd'.repeat(2001) },
      { type: 'a', label: 5, detail: '' },
      { type: 'a', label: '' },
      { type: 'a', label: '', detail: '', extra: true },
      { userId: 'abc', type: 'a', label: '', detail: '' },
      { userId: null, type: 'a', label: '', detail: '' },
      { userId: 42, type: 'a', label: '', detail: '' },
      { userId: '00000000-0000-0000-0000-000000000000', type: 'a', label: '', detail: '' },
    ];
    const options = { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true };
    let clean = 0;
    for (const event of cases) {
      if (!isCleanBatch([plainToInstance(TelemetryEventBody, event)])) continue;
      clean++;
      expect(await validate(plainToInstance(TelemetryEventBody, event), options)).toEqual([]);
    }
    // The upper-case userId takes the full path, which hands it on in lower case (toDto).
    expect(clean).toBe(2);
    expect(isCleanBatch([])).toBe(false);
    expect(isCleanBatch(['text'])).toBe(false);
  });

  it("answers 404 for an unknown session or another organisation's", async () => {
    const stranger = await createAccount(stack, { tier: 'pro' });
    const event = [{ type: 't', label: 'l', detail: '' }];
    expect((await send(event, {}, sessionId, stranger)).status).toBe(404);
    expect((await send(event, {}, '0190a0a0-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await stack.http.get(`/sessions/${sessionId}`).set(stranger.auth)).status).toBe(404);
  });

  it('accepts late batches during the grace period, then 409 session_ended', async () => {
    const room = await createRoom(stack, org.admin, { participantIds: [org.members[0].user.id] });
    const host = org.members[0];
    const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id;
    await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth).expect(200);
    expect((await send([{ type: 'late', label: 'l', detail: '' }], {}, id)).status).toBe(202);
    const refused = await eventually(async () => {
      const res = await send([{ type: 'late', label: 'l', detail: '' }], {}, id);
      return res.status === 409 ? res : null;
    });
    expect(refused.body.code).toBe('session_ended');
    // Also when the state is no longer cached (answered from the database).
    await stack.services.redis.del(`${stack.config.REDIS_NAMESPACE}:vr:session:${id}`);
    expect((await send([{ type: 'late', label: 'l', detail: '' }], {}, id)).status).toBe(409);
  });

  it('refuses telemetry of a session that ended while its start was being announced, once the grace period is over', async () => {
    const host = org.members[0];
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    // The host's session has committed; its announcement (telemetry gate, hub) is held while the room closes.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    const original = SessionGate.prototype.started;
    const spy = jest.spyOn(SessionGate.prototype, 'started').mockImplementation(async function (
      this: SessionGate,
      ...args: Parameters<SessionGate['started']>
    ) {
      reached();
      await held;
      return original.apply(this, args);
    });
    const hosting = stack.http
      .post(`/rooms/${room.id}/host`)
      .set(host.auth)
      .then((r) => r);
    await atGate;
    await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth).expect(200);
    release();
    const hosted = await hosting;
    spy.mockRestore();
    expect(hosted.status).toBe(201);
    const id = hosted.body.id as string;
    expect((await stack.http.get(`/sessions/${id}`).set(org.admin.auth)).body).toMatchObject({
      status: 'ended',
      endReason: 'room_closed',
    });

    const refused = await eventually(
      async () => {
        const res = await send([{ type: 'late', label: 'l', detail: '' }], {}, id);
        return res.status === 409 ? res : null;
      },
      { timeoutMs: 6000, what: 'telemetry refused after the grace period' },
    );
    expect(refused.body.code).toBe('session_ended');
    // The hub never hears the session start after its end.
    await eventually(() => hub.received.some((r) => r.body.event === 'room.closed' && r.body.roomId === room.id));
    expect(hub.received.filter((r) => r.body.sessionId === id).map((r) => r.body.event)).toEqual(['session.ended']);
  });

  it('refuses telemetry of a session whose end never reached the gate (Redis failing after the commit), once the presence sweep ran', async () => {
    const host = org.members[0];
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id as string;
    // The end commits, then its write to the telemetry gate is lost.
    jest.spyOn(SessionGate.prototype, 'ended').mockResolvedValueOnce(undefined);
    await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth).expect(200);
    // Past the grace period, counted from the end PostgreSQL recorded: the gate, never told of the end, still accepts.
    const { endedAt } = await stack.services.orm.em
      .fork()
      .findOneOrFail(VrSession, { id }, { filters: { tenant: false } });
    const graceOver = endedAt!.getTime() + stack.services.config.TELEMETRY_GRACE_SECONDS * 1000;
    await eventually(() => Date.now() > graceOver, { timeoutMs: 5000, what: 'the grace period to pass' });
    expect((await send([{ type: 'late', label: 'l', detail: '' }], {}, id)).status).toBe(202);

    // The sweep's next comparison with PostgreSQL (every 30 s; made due now) repairs the gate.
    await stack.services.redis.del(stack.services.key('vr', 'reconciled'));
    await sweepPresence(stack.services);
    const refused = await eventually(
      async () => {
        const res = await send([{ type: 'late', label: 'l', detail: '' }], {}, id);
        return res.status === 409 ? res : null;
      },
      { timeoutMs: 3000, what: 'telemetry refused once repaired' },
    );
    expect(refused.body.code).toBe('session_ended');
  });
});
