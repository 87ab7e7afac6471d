import { createHash, randomUUID } from 'node:crypto';
import { addMember, createAccount, type Account } from '../support/factories';
import { deliveredMail, linkToken } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg } from '../support/vr';
import { eventually } from '../support/wait';
import { ingestTelemetry } from '../../domain/vr/ingestTelemetry';
import type { TelemetryJob } from '../../queues/vr';

/**
 * Whose telemetry an event may carry: the sender's, a user who took part in the session (hosted or joined
 * it), or a simulated trainee of an instructor's headset (any id that is not a member of the organisation).
 * A member who never joined may not be named: the edge refuses with 422 not_a_participant when it can tell;
 * when it cannot, the worker drops those events (checked against the database) so reports never show them.
 */
describe('VR telemetry attribution', () => {
  let stack: TestStack;
  const logs: string[] = [];
  let host: Account;
  let joiner: Account;
  let bystander: Account; // a colleague assigned to the room who never joined
  let elsewhere: Account; // a colleague who hosted another room's session
  let stranger: Account; // a user of another organisation: no member here, so a simulated trainee
  let admin: Account;
  let roomId: string;
  let sessionId: string;

  beforeAll(async () => {
    stack = await startStack({ logs, env: { LOG_LEVEL: 'warn' } });
    const org = await vrOrg(stack, 4);
    admin = org.admin;
    [host, joiner, bystander, elsewhere] = org.members;
    stranger = await createAccount(stack, { tier: 'pro' });
    roomId = (
      await createRoom(stack, admin, {
        simulationSteps: 3,
        participantIds: [host.user.id, joiner.user.id, bystander.user.id],
      })
    ).id;
    sessionId = (await stack.http.post(`/rooms/${roomId}/host`).set(host.auth).expect(201)).body.id;
    await stack.http.post(`/rooms/${roomId}/join`).set(joiner.auth).expect(200);
    const other = await createRoom(stack, admin, { participantIds: [elsewhere.user.id] });
    await stack.http.post(`/rooms/${other.id}/host`).set(elsewhere.auth).expect(201);
  });
  afterAll(() => stack.close());

  const event = (type: string, label: string, userId?: string) => ({
    type,
    label,
    detail: '',
    ...(userId ? { userId } : {}),
  });
  const send = (events: unknown[], who = host, id = sessionId, headers: Record<string, string> = {}) =>
    stack.http.post(`/sessions/${id}/telemetry`).set(who.auth).set(headers).send({ events });
  const session = async (id = sessionId) => (await stack.http.get(`/sessions/${id}`).set(admin.auth).expect(200)).body;
  type ParticipantBody = { userId: string; eventsCount: number; stepsPassed: number };
  const participant = (s: { participants: ParticipantBody[] }, userId: string) =>
    s.participants.find((p) => p.userId === userId);
  /** Waits until the session has applied `n` events in all (a marker batch of the sender shows the worker got there). */
  const applied = (n: number, id = sessionId) =>
    eventually(async () => (await session(id)).eventsCount === n && session(id), { what: `${n} events applied` });
  const participantsKey = (id = sessionId) => stack.services.key('vr', 'participants', id);
  const sql = async <T = unknown[]>(text: string, params: unknown[]) =>
    (await stack.services.orm.em.fork().getConnection().execute(text, params)) as T;
  /** A participant known from telemetry alone, as a simulated trainee is shown: no name, never joined. */
  const traineeRow = (userId: string, more: object) => ({
    userId,
    displayName: null,
    isHost: false,
    joinedAt: null,
    leftAt: null,
    ...more,
  });

  it('attributes events naming the sender or a participant who joined', async () => {
    const before = (await session()).eventsCount;
    const res = await send([
      event('step_passed', 's1'),
      event('step_passed', 's1', joiner.user.id),
      event('step_passed', 's2', host.user.id),
    ]);
    expect(res.status).toBe(202);
    const s = await applied(before + 3);
    expect(participant(s, host.user.id)).toMatchObject({ stepsPassed: 2, eventsCount: 2 });
    expect(participant(s, joiner.user.id)).toMatchObject({ stepsPassed: 1, eventsCount: 1 });
  });

  it('one participant per user however the id is spelt (upper case)', async () => {
    const before = await session();
    await send([
      event('step_passed', 's2', joiner.user.id.toUpperCase()),
      event('step_passed', 's3', joiner.user.id),
    ]).expect(202);
    const s = await applied(before.eventsCount + 2);
    expect(s.participants.filter((p: { userId: string }) => p.userId === joiner.user.id)).toHaveLength(1);
    expect(participant(s, joiner.user.id)).toMatchObject({
      stepsPassed: 3,
      eventsCount: participant(before, joiner.user.id)!.eventsCount + 2,
    });
  });

  it('checks the same whatever the case of the session id in the path', async () => {
    const before = (await session()).eventsCount;
    const upper = sessionId.toUpperCase();
    expect((await send([event('x', 'y', bystander.user.id)], host, upper)).status).toBe(422);
    await send([event('object_grabbed', 'hose', joiner.user.id)], host, upper).expect(202);
    await applied(before + 1);
  });

  it('refuses with 422 not_a_participant a batch naming a member who never joined, and applies none of it', async () => {
    const before = (await session()).eventsCount;
    for (const [who, userId] of [
      ['a member who never joined', bystander.user.id],
      ['a participant of another session', elsewhere.user.id],
      ['the owner, who never joined', admin.user.id],
    ] as const) {
      const res = await send(
        [
          event('step_passed', 's1'),
          event('simulation_completed', 'fire', userId),
          event('step_passed', 's2', joiner.user.id),
          event('x', 'y', userId.toUpperCase()),
          event('step_passed', 's1', randomUUID()),
        ],
        host,
        sessionId,
        { 'Idempotency-Key': `forged-${userId}` },
      );
      expect({ who, status: res.status, code: res.body.code }).toEqual({ who, status: 422, code: 'not_a_participant' });
      expect(res.body.errors).toEqual([
        { field: 'events[1].userId', message: expect.any(String) },
        { field: 'events[3].userId', message: expect.any(String) },
      ]);
    }
    // The refused keys were not remembered: the corrected batch goes through under the same key.
    await send([event('marker', 'fixed')], host, sessionId, {
      'Idempotency-Key': `forged-${bystander.user.id}`,
    }).expect(202);
    const s = await applied(before + 1);
    for (const id of [bystander.user.id, elsewhere.user.id, admin.user.id]) expect(participant(s, id)).toBeUndefined();
  });

  it("accepts ids that are no members as simulated trainees (another organisation's user, an unknown id), showing nothing of them", async () => {
    const before = (await session()).eventsCount;
    const trainee = randomUUID();
    const res = await send([
      event('step_passed', 's1', stranger.user.id),
      event('simulation_completed', 'fire', stranger.user.id.toUpperCase()),
      event('step_passed', 's1', trainee),
    ]);
    expect(res.status).toBe(202);
    const s = await applied(before + 3);
    expect(participant(s, stranger.user.id)).toEqual(
      traineeRow(stranger.user.id, {
        stepsPassed: 1,
        progress: expect.any(Number),
        lastStep: 's1',
        eventsCount: 2,
        completed: true,
        completedAt: expect.any(String),
      }),
    );
    expect(participant(s, trainee)).toEqual(
      traineeRow(trainee, {
        stepsPassed: 1,
        progress: expect.any(Number),
        lastStep: 's1',
        eventsCount: 1,
        completed: false,
        completedAt: null,
      }),
    );
    // Nothing of the other organisation: not the user's name or address, not its id; nothing written there.
    const shown = JSON.stringify(s);
    for (const secret of [stranger.user.displayName, stranger.email, stranger.tenantId])
      expect(shown).not.toContain(secret);
    for (const table of ['vr_session_participants', 'vr_telemetry_events', 'vr_step_passes', 'vr_telemetry_batches']) {
      expect({ table, rows: await sql(`select 1 from ${table} where tenant_id = ?`, [stranger.tenantId]) }).toEqual({
        table,
        rows: [],
      });
    }
    const rows = await sql<{ tenant_id: string; display_name: string | null }[]>(
      `select tenant_id, display_name from vr_session_participants where user_id = ?`,
      [stranger.user.id],
    );
    expect(rows).toEqual([{ tenant_id: host.tenantId, display_name: null }]);
  });

  it('decides for many unknown ids at once (one lookup past the cached ones)', async () => {
    const before = (await session()).eventsCount;
    const trainees = Array.from({ length: 40 }, () => randomUUID());
    const refused = await send([
      ...trainees.map((u) => event('x', 'y', u)),
      event('step_passed', 's1', bystander.user.id),
    ]);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field: 'events[40].userId', message: expect.any(String) }]);
    await send(trainees.map((u) => event('x', 'y', u))).expect(202);
    const s = await applied(before + 40);
    expect(participant(s, bystander.user.id)).toBeUndefined();
    expect(participant(s, trainees[39])).toMatchObject({ joinedAt: null, eventsCount: 1 });
  });

  it('a user who becomes a member is no simulated trainee any more, at once', async () => {
    const newcomer = await createAccount(stack);
    await send([event('x', 'before', newcomer.user.id)]).expect(202); // its non-membership now cached
    await stack.http
      .post(`/orgs/${admin.tenantId}/invite`)
      .set(admin.auth)
      .send({ email: newcomer.email, role: 'member' })
      .expect(201);
    const token = linkToken(await deliveredMail(stack, newcomer.email, 'invitation'));
    await stack.http.post('/orgs/invites/accept').set(newcomer.auth).send({ token }).expect(201);
    const res = await send([event('x', 'after', newcomer.user.id)]);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code: 'not_a_participant' });
  });

  it('a member whose roles grant nothing passes the edge (no permissions read as no member) but the worker drops their events', async () => {
    await stack.http
      .post('/rbac/roles')
      .set(admin.auth)
      .send({ key: 'observer', name: 'Observer', permissions: [] })
      .expect(201);
    const observer = await addMember(stack, admin, 'observer');
    const before = (await session()).eventsCount;
    await send([event('step_passed', 's1', observer.user.id), event('marker', 'sent')]).expect(202);
    const s = await applied(before + 1);
    expect(participant(s, observer.user.id)).toBeUndefined();
  });

  it('lets a participant who left be named, and a sender who never joined send their own events', async () => {
    const room = await createRoom(stack, admin, { participantIds: [host.user.id, joiner.user.id, bystander.user.id] });
    const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id as string;
    await stack.http.post(`/rooms/${room.id}/join`).set(joiner.auth).expect(200);
    await stack.http.post(`/rooms/${room.id}/leave`).set(joiner.auth).expect(200);
    await send([event('step_passed', 's1', joiner.user.id)], host, id).expect(202);
    await send([event('step_passed', 's1'), event('step_passed', 's2', bystander.user.id)], bystander, id).expect(202);
    const s = await applied(3, id);
    expect(participant(s, joiner.user.id)).toMatchObject({ stepsPassed: 1 });
    expect(participant(s, bystander.user.id)).toMatchObject({ stepsPassed: 2, joinedAt: null });
    // The bystander sending for themself does not make them someone others may name.
    expect((await send([event('step_passed', 's3', bystander.user.id)], host, id)).status).toBe(422);
  });

  it('keeps the rule during the grace period after the session ended', async () => {
    const room = await createRoom(stack, admin, { participantIds: [host.user.id, joiner.user.id, bystander.user.id] });
    const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id as string;
    await stack.http.post(`/rooms/${room.id}/join`).set(joiner.auth).expect(200);
    await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth).expect(200);
    expect((await session(id)).status).toBe('ended');
    await send([event('step_passed', 'late', joiner.user.id)], host, id).expect(202);
    const refused = await send([event('step_passed', 'late', bystander.user.id)], host, id);
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('not_a_participant');
    const s = await applied(1, id);
    expect(participant(s, joiner.user.id)).toMatchObject({ stepsPassed: 1, lastStep: 'late' });
    expect(participant(s, bystander.user.id)).toBeUndefined();
  });

  describe('when the edge cannot tell (its record of the participants lost)', () => {
    const dropCount = async () => (await stack.services.metrics.telemetryEventsDropped.get()).values[0]?.value ?? 0;

    it('accepts the batch; the worker drops the events naming a member who never joined, out of every figure, and keeps simulated trainees', async () => {
      const room = await createRoom(stack, admin, {
        simulationSteps: 2,
        participantIds: [host.user.id, joiner.user.id, bystander.user.id],
      });
      const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id as string;
      await stack.http.post(`/rooms/${room.id}/join`).set(joiner.auth).expect(200);
      // Redis lost the set; the host hosting again (their running session back) rebuilds it, without its "complete" mark.
      await stack.services.redis.del(participantsKey(id));
      await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(200);
      expect(await stack.services.redis.sismember(participantsKey(id), host.user.id)).toBe(1);
      const droppedBefore = await dropCount();

      const trainee = randomUUID();
      const res = await send(
        [
          event('step_passed', 'a'),
          ...[bystander.user.id, elsewhere.user.id].flatMap((u) => [
            event('step_passed', 'a', u),
            event('simulation_completed', 'fire', u),
          ]),
          event('step_passed', 'a', stranger.user.id),
          event('simulation_completed', 'fire', trainee),
          event('step_passed', 'a', joiner.user.id),
          event('simulation_completed', 'fire', bystander.user.id.toUpperCase()),
        ],
        host,
        id,
        { 'Idempotency-Key': 'partly-forged' },
      );
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ events: 9, duplicate: false });
      // A replay (the edge's key forgotten too) is applied once: nothing more.
      await stack.services.redis.del(
        stack.services.key('vr', 'telemetry-key', id, createHash('sha1').update('partly-forged').digest('hex')),
      );
      await send([event('step_passed', 'a')], host, id, { 'Idempotency-Key': 'partly-forged' }).expect(202);
      await send([event('marker', 'end')], host, id).expect(202);

      const s = await applied(5, id);
      expect(s.participants.map((p: { userId: string }) => p.userId).sort()).toEqual(
        [host.user.id, joiner.user.id, stranger.user.id, trainee].sort(),
      );
      expect(participant(s, host.user.id)).toMatchObject({ stepsPassed: 1, eventsCount: 2, completed: false });
      expect(participant(s, joiner.user.id)).toMatchObject({ stepsPassed: 1, eventsCount: 1 });
      expect(participant(s, stranger.user.id)).toMatchObject(
        traineeRow(stranger.user.id, { stepsPassed: 1, eventsCount: 1 }),
      );
      expect(participant(s, trainee)).toMatchObject(traineeRow(trainee, { eventsCount: 1, completed: true }));
      const report = (await stack.http.get(`/reports/sessions?roomId=${room.id}`).set(admin.auth).expect(200)).body
        .items[0];
      expect(report).toMatchObject({ id, eventsCount: 5, participantsCount: 4, completedCount: 1 });
      const stored = await sql<{ user_id: string }[]>(
        `select distinct user_id from vr_telemetry_events where session_id = ?`,
        [id],
      );
      expect(stored.map((r) => r.user_id).sort()).toEqual(
        [host.user.id, joiner.user.id, stranger.user.id, trainee].sort(),
      );

      // The real worker logged the batch (warn) and counted the dropped events.
      expect(await dropCount()).toBe(droppedBefore + 5);
      const warned = logs
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.batchKey === 'partly-forged');
      expect(warned).toEqual([
        expect.objectContaining({
          sessionId: id,
          senderId: host.user.id,
          droppedEvents: 5,
          userIds: [bystander.user.id, elsewhere.user.id],
        }),
      ]);
    });

    it('logs what it dropped, counts a replayed job once, and judges membership in the batch’s tenant', async () => {
      const room = await createRoom(stack, admin, { participantIds: [host.user.id, joiner.user.id] });
      const id = (await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201)).body.id as string;
      await stack.http.post(`/rooms/${room.id}/join`).set(joiner.auth).expect(200);
      const job: TelemetryJob = {
        tenantId: host.tenantId,
        sessionId: id,
        batchKey: 'direct',
        senderId: host.user.id,
        receivedAt: new Date().toISOString(),
        // The stranger is a member of their own organisation, not of this one: a simulated trainee here.
        events: [
          event('step_passed', 's1', joiner.user.id),
          event('step_passed', 's1', stranger.user.id),
          event('x', 'y', stranger.user.id),
          event('step_passed', 's1', bystander.user.id),
          event('x', 'y', elsewhere.user.id),
        ],
      };
      const warn = jest.fn();
      expect(await ingestTelemetry(stack.services.orm.em.fork(), [job, job], { warn })).toEqual({
        batches: 1,
        duplicates: 1,
        events: 3,
        dropped: 2,
      });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toEqual({
        tenantId: host.tenantId,
        sessionId: id,
        batchKey: 'direct',
        senderId: host.user.id,
        droppedEvents: 2,
        userIds: [bystander.user.id, elsewhere.user.id],
      });
      expect(await ingestTelemetry(stack.services.orm.em.fork(), [job], { warn })).toEqual({
        batches: 0,
        duplicates: 1,
        events: 0,
      });
      expect(warn).toHaveBeenCalledTimes(1);

      // A batch of nothing but forged events: recorded (a replay adds nothing), nothing counted.
      const forgedOnly = {
        ...job,
        batchKey: 'forged-only',
        events: [event('simulation_completed', 'fire', admin.user.id)],
      };
      expect(await ingestTelemetry(stack.services.orm.em.fork(), [forgedOnly], { warn })).toEqual({
        batches: 1,
        duplicates: 0,
        events: 0,
        dropped: 1,
      });
      expect(await ingestTelemetry(stack.services.orm.em.fork(), [forgedOnly], { warn })).toEqual({
        batches: 0,
        duplicates: 1,
        events: 0,
      });

      const s = await session(id);
      expect(s.eventsCount).toBe(3);
      expect(participant(s, joiner.user.id)).toMatchObject({ stepsPassed: 1, eventsCount: 1 });
      expect(participant(s, stranger.user.id)).toMatchObject(
        traineeRow(stranger.user.id, { stepsPassed: 1, eventsCount: 2 }),
      );
      expect(s.participants).toHaveLength(3);
    });
  });
});
