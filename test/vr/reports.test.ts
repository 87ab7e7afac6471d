import { randomUUID } from 'node:crypto';
import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

/**
 * Known event sequences and the figures they must give.
 *   Run 1 (fire-safety-101, 4 steps, ended): A passes s1 s2 s2 s3 s4 and grabs an object (4 distinct steps:
 *     completed, 6 events), B passes s1 then sends simulation_completed (completed, 2 events), a simulated
 *     trainee U passes s1 s2 (0.5, 2 events).
 *   Run 2 (same room, running): A passes s1 (0.25). 1 event.
 *   Run 3 (crane-ops, 2 steps, other room, ended): B passes a b a (completed). 3 events.
 */
describe('VR reports', () => {
  let stack: TestStack;
  let org: VrOrg;
  const trainee = randomUUID();
  let fireRoom: string;
  let craneRoom: string;
  let run1: string;
  let run2: string;
  let run3: string;

  const step = (label: string, userId?: string) => ({
    type: 'step_passed',
    label,
    detail: '',
    ...(userId ? { userId } : {}),
  });

  beforeAll(async () => {
    stack = await startStack();
    org = await vrOrg(stack, 2);
    const [a, b] = org.members;
    const everyone = [a.user.id, b.user.id];
    fireRoom = (
      await createRoom(stack, org.admin, {
        simulation: 'fire-safety-101',
        simulationSteps: 4,
        participantIds: everyone,
      })
    ).id;
    craneRoom = (
      await createRoom(stack, org.admin, {
        name: 'Crane yard',
        simulation: 'crane-ops',
        simulationSteps: 2,
        participantIds: everyone,
      })
    ).id;
    const telemetry = (sessionId: string, who: typeof a, events: object[]) =>
      stack.http.post(`/sessions/${sessionId}/telemetry`).set(who.auth).send({ events }).expect(202);
    const eventsApplied = (sessionId: string, n: number) =>
      eventually(
        async () => (await stack.http.get(`/sessions/${sessionId}`).set(org.admin.auth)).body.eventsCount === n,
      );

    run1 = (await stack.http.post(`/rooms/${fireRoom}/host`).set(a.auth).expect(201)).body.id;
    await stack.http.post(`/rooms/${fireRoom}/join`).set(b.auth).expect(200);
    await telemetry(run1, a, [
      step('s1'),
      step('s2'),
      step('s2'),
      { type: 'object_grabbed', label: 'extinguisher', detail: '' },
    ]);
    await telemetry(run1, a, [step('s3'), step('s4'), step('s1', trainee), step('s2', trainee)]);
    await telemetry(run1, b, [step('s1'), { type: 'simulation_completed', label: '', detail: '' }]);
    await eventsApplied(run1, 10);
    await stack.http.post(`/rooms/${fireRoom}/leave`).set(a.auth).expect(200);

    run2 = (await stack.http.post(`/rooms/${fireRoom}/host`).set(a.auth).expect(201)).body.id;
    await telemetry(run2, a, [step('s1')]);
    await eventsApplied(run2, 1);

    run3 = (await stack.http.post(`/rooms/${craneRoom}/host`).set(b.auth).expect(201)).body.id;
    await telemetry(run3, b, [step('a'), step('b'), step('a')]);
    await eventsApplied(run3, 3);
    await stack.http.post(`/rooms/${craneRoom}/leave`).set(b.auth).expect(200);
  });
  afterAll(() => stack.close());

  it('reports each session: completion rate, duration and progress per participant', async () => {
    const [a, b] = org.members;
    const res = await stack.http.get('/reports/sessions').set(org.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([run3, run2, run1]);
    const [r3, r2, r1] = res.body.items;
    expect(r1).toMatchObject({
      status: 'ended',
      eventsCount: 10,
      participantsCount: 3,
      completedCount: 2,
      completionRate: 2 / 3,
    });
    expect(r1.durationSeconds).toBeGreaterThanOrEqual(0);
    const byUser = Object.fromEntries(r1.participants.map((p: { userId: string }) => [p.userId, p]));
    expect(byUser[a.user.id]).toMatchObject({
      stepsPassed: 4,
      progress: 1,
      completed: true,
      eventsCount: 6,
      lastStep: 's4',
      isHost: true,
    });
    expect(byUser[b.user.id]).toMatchObject({ stepsPassed: 1, progress: 0.25, completed: true, eventsCount: 2 });
    expect(byUser[trainee]).toMatchObject({
      stepsPassed: 2,
      progress: 0.5,
      completed: false,
      eventsCount: 2,
      joinedAt: null,
    });
    expect(r2).toMatchObject({
      status: 'running',
      participantsCount: 1,
      completedCount: 0,
      completionRate: 0,
      participants: [expect.objectContaining({ progress: 0.25 })],
    });
    expect(r3).toMatchObject({
      simulation: 'crane-ops',
      eventsCount: 3,
      completionRate: 1,
      participants: [expect.objectContaining({ userId: b.user.id, stepsPassed: 2, completed: true })],
    });

    const filtered = await stack.http.get(`/reports/sessions?roomId=${fireRoom}&limit=1`).set(org.admin.auth);
    expect(filtered.body.items.map((s: { id: string }) => s.id)).toEqual([run2]);
    expect(filtered.body.nextCursor).toBe(run2);
    const next = await stack.http
      .get(`/reports/sessions?roomId=${fireRoom}&limit=1&cursor=${run2}`)
      .set(org.admin.auth);
    expect(next.body.items.map((s: { id: string }) => s.id)).toEqual([run1]);
  });

  it('aggregates per simulation, per room and overall', async () => {
    const res = await stack.http.get('/reports/overview').set(org.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({
      runs: 3,
      runningRuns: 1,
      participants: 5,
      completedParticipants: 3,
      completionRate: 0.6,
      events: 14,
    });
    expect(res.body.totals.averageProgress).toBeCloseTo(0.6);
    expect(res.body.totals.averageDurationSeconds).toEqual(expect.any(Number));
    const fire = res.body.bySimulation.find((s: { simulation: string }) => s.simulation === 'fire-safety-101');
    expect(fire).toMatchObject({
      runs: 2,
      runningRuns: 1,
      participants: 4,
      completedParticipants: 2,
      completionRate: 0.5,
      events: 11,
    });
    expect(fire.averageProgress).toBeCloseTo(0.5);
    expect(res.body.bySimulation.find((s: { simulation: string }) => s.simulation === 'crane-ops')).toMatchObject({
      runs: 1,
      participants: 1,
      completionRate: 1,
      averageProgress: 1,
      events: 3,
    });
    expect(res.body.byRoom).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ roomId: fireRoom, roomName: 'Fire drill', runs: 2 }),
        expect.objectContaining({ roomId: craneRoom, roomName: 'Crane yard', runs: 1, completedParticipants: 1 }),
      ]),
    );

    const crane = await stack.http.get('/reports/overview?simulation=crane-ops').set(org.admin.auth);
    expect(crane.body.totals).toMatchObject({ runs: 1, participants: 1 });
    expect(crane.body.bySimulation).toHaveLength(1);
    const room = await stack.http.get(`/reports/overview?roomId=${fireRoom}`).set(org.admin.auth);
    expect(room.body.totals).toMatchObject({ runs: 2, participants: 4 });
    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = await stack.http.get(`/reports/overview?from=${future}`).set(org.admin.auth);
    expect(none.body).toEqual({
      totals: {
        runs: 0,
        runningRuns: 0,
        participants: 0,
        completedParticipants: 0,
        completionRate: null,
        averageProgress: null,
        averageDurationSeconds: null,
        events: 0,
      },
      bySimulation: [],
      byRoom: [],
    });
  });

  it('follows a running session within seconds', async () => {
    const [a] = org.members;
    await stack.http
      .post(`/sessions/${run2}/telemetry`)
      .set(a.auth)
      .send({ events: [step('s2'), step('s3'), step('s4')] })
      .expect(202);
    const report = await eventually(
      async () => {
        const res = await stack.http.get(`/reports/sessions?roomId=${fireRoom}&limit=1`).set(org.admin.auth);
        return res.body.items[0].completedCount === 1 && res.body.items[0];
      },
      { timeoutMs: 5000 },
    );
    expect(report).toMatchObject({
      status: 'running',
      completionRate: 1,
      participants: [expect.objectContaining({ stepsPassed: 4, progress: 1, completed: true })],
    });
  });

  it('refuses bad filters', async () => {
    for (const query of [
      'from=yesterday',
      'roomId=42',
      'simulation=Bad Key',
      'limit=0',
      'from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z',
      'extra=1',
    ]) {
      const res = await stack.http.get(`/reports/sessions?${query}`).set(org.admin.auth);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    expect((await stack.http.get('/reports/overview?to=soon').set(org.admin.auth)).status).toBe(400);
  });

  it('shows another organisation nothing', async () => {
    const stranger = await createAccount(stack, { tier: 'pro' });
    const sessions = await stack.http.get('/reports/sessions').set(stranger.auth);
    expect(sessions.body).toEqual({ items: [], nextCursor: null });
    const overview = await stack.http.get(`/reports/overview?roomId=${fireRoom}`).set(stranger.auth);
    expect(overview.body.totals.runs).toBe(0);
    expect((await stack.http.get(`/sessions/${run1}`).set(stranger.auth)).status).toBe(404);
  });

  it('needs vr.reports.read', async () => {
    const noReports = await createAccount(stack, { tier: 'pro' });
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(`update roles set permissions = array_remove(permissions, 'vr.reports.read') where tenant_id = ?`, [
        noReports.tenantId,
      ]);
    await stack.services.permissions.invalidate(noReports.tenantId);
    const res = await stack.http.get('/reports/overview').set(noReports.auth);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
  });
});
