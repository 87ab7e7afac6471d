import { createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, vrOrg, type VrOrg } from '../support/vr';

describe('VR rooms (administration)', () => {
  let stack: TestStack;
  let org: VrOrg;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await vrOrg(stack, 2);
  });
  afterAll(() => stack.close());

  const body = (extra: Record<string, unknown> = {}) => ({
    name: 'Fire drill',
    simulation: 'fire-safety-101',
    simulationSteps: 5,
    mode: 'multiplayer',
    capacity: 6,
    ...extra,
  });

  it('creates a closed room with its assigned participants', async () => {
    const ids = org.members.map((m) => m.user.id);
    const res = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send(body({ participantIds: [...ids, ids[0]] }));
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/rooms/${res.body.id}`);
    expect(res.body).toMatchObject({
      name: 'Fire drill',
      simulation: 'fire-safety-101',
      simulationSteps: 5,
      mode: 'multiplayer',
      capacity: 6,
      status: 'closed',
      currentSessionId: null,
      openedAt: null,
    });
    expect(res.body.participantIds.sort()).toEqual([...ids].sort());
    const got = await stack.http.get(`/rooms/${res.body.id}`).set(org.admin.auth);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('gives a solo room capacity 1 and a multiplayer room 8 by default', async () => {
    const solo = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send(body({ mode: 'solo', capacity: undefined }));
    expect(solo.body.capacity).toBe(1);
    const multi = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send(body({ capacity: undefined }));
    expect(multi.body.capacity).toBe(8);
    const bad = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send(body({ mode: 'solo', capacity: 3 }));
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ field: 'capacity', message: 'must be 1 for a solo room' }]);
  });

  it('refuses bad input with field errors', async () => {
    const res = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send({
        name: '',
        simulation: 'Bad Key!',
        simulationSteps: 0,
        mode: 'party',
        capacity: 65,
        participantIds: ['nope'],
        extra: 1,
      });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    const fields = res.body.errors.map((e: { field: string }) => e.field);
    expect(fields).toEqual(
      expect.arrayContaining(['name', 'simulation', 'simulationSteps', 'mode', 'capacity', 'participantIds', 'extra']),
    );
    expect(
      (
        await stack.http
          .post('/rooms')
          .set(org.admin.auth)
          .send(body({ capacity: 0 }))
      ).status,
    ).toBe(400);
    expect((await stack.http.get('/rooms/not-a-uuid').set(org.admin.auth)).status).toBe(400);
    expect((await stack.http.get('/rooms?status=ajar').set(org.admin.auth)).status).toBe(400);
    expect((await stack.http.get('/rooms?limit=500').set(org.admin.auth)).status).toBe(400);
  });

  it('refuses participants who are not members of the organisation', async () => {
    const outsider = await createAccount(stack, { tier: 'pro' });
    const res = await stack.http
      .post('/rooms')
      .set(org.admin.auth)
      .send(body({ participantIds: [org.members[0].user.id, outsider.user.id] }));
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ field: 'participantIds' });
    expect(res.body.errors[0].message).toContain(outsider.user.id);
  });

  it('edits a room, switching modes with their capacity rules', async () => {
    const room = await createRoom(stack, org.admin, {}, { open: false });
    const res = await stack.http
      .patch(`/rooms/${room.id}`)
      .set(org.admin.auth)
      .send({ name: 'Evacuation', mode: 'solo', participantIds: [org.members[1].user.id] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Evacuation',
      mode: 'solo',
      capacity: 1,
      participantIds: [org.members[1].user.id],
    });
    const back = await stack.http.patch(`/rooms/${room.id}`).set(org.admin.auth).send({ mode: 'instructor_led' });
    expect(back.body).toMatchObject({ mode: 'instructor_led', capacity: 8 });
    expect((await stack.http.patch(`/rooms/${room.id}`).set(org.admin.auth).send({ capacity: 100 })).status).toBe(400);
    expect((await stack.http.patch(`/rooms/${room.id}`).set(org.admin.auth).send({ status: 'open' })).status).toBe(400);
  });

  it('lists rooms with filters and cursor pagination', async () => {
    const other = await vrOrg(stack, 0);
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(
        await createRoom(stack, other.admin, { simulation: i === 2 ? 'crane-ops' : 'forklift' }, { open: i !== 1 }),
      );
    const first = await stack.http.get('/rooms?limit=2').set(other.admin.auth);
    expect(first.status).toBe(200);
    expect(first.body.items.map((r: { id: string }) => r.id)).toEqual([made[0].id, made[1].id]);
    expect(first.body.nextCursor).toBe(made[1].id);
    const second = await stack.http.get(`/rooms?limit=2&cursor=${first.body.nextCursor}`).set(other.admin.auth);
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: made[2].id })], nextCursor: null });
    const open = await stack.http.get('/rooms?status=open&simulation=forklift').set(other.admin.auth);
    expect(open.body.items.map((r: { id: string }) => r.id)).toEqual([made[0].id]);
  });

  it("caps the number of rooms at the tier's vrRooms limit", async () => {
    const capped = await vrOrg(stack, 0);
    const sql = stack.services.orm.em.fork().getConnection();
    await sql.execute(
      `update plans set entitlements = jsonb_set(entitlements, '{limits,vrRooms}', '2') where tier = 'pro'`,
    );
    try {
      await stack.services.entitlements.invalidate(capped.admin.tenantId);
      await createRoom(stack, capped.admin, {}, { open: false });
      await createRoom(stack, capped.admin, {}, { open: false });
      const third = await stack.http.post('/rooms').set(capped.admin.auth).send(body());
      expect(third.status).toBe(409);
      expect(third.body.code).toBe('room_limit_reached');
    } finally {
      await sql.execute(
        `update plans set entitlements = jsonb_set(entitlements, '{limits,vrRooms}', '20') where tier = 'pro'`,
      );
      await stack.services.entitlements.invalidate(capped.admin.tenantId);
    }
  });

  it('deletes a room', async () => {
    const room = await createRoom(stack, org.admin, {}, { open: false });
    expect((await stack.http.delete(`/rooms/${room.id}`).set(org.admin.auth)).status).toBe(204);
    expect((await stack.http.get(`/rooms/${room.id}`).set(org.admin.auth)).status).toBe(404);
    expect((await stack.http.delete(`/rooms/${room.id}`).set(org.admin.auth)).status).toBe(404);
  });

  it('hides rooms of another organisation (404, not listed)', async () => {
    const room = await createRoom(stack, org.admin, {}, { open: false });
    const stranger = await createAccount(stack, { tier: 'pro' });
    for (const req of [
      stack.http.get(`/rooms/${room.id}`),
      stack.http.patch(`/rooms/${room.id}`).send({ name: 'Mine now' }),
      stack.http.delete(`/rooms/${room.id}`),
      stack.http.post(`/rooms/${room.id}/open`),
      stack.http.post(`/rooms/${room.id}/close`),
      stack.http.get(`/rooms/${room.id}/presence`),
    ]) {
      const res = await req.set(stranger.auth);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
    const list = await stack.http.get('/rooms').set(stranger.auth);
    expect(list.body.items).toEqual([]);
  });

  it('needs vr.rooms.manage to change rooms (members read only)', async () => {
    const member = org.members[0];
    const res = await stack.http.post('/rooms').set(member.auth).send(body());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    const room = await createRoom(stack, org.admin, {}, { open: false });
    expect((await stack.http.post(`/rooms/${room.id}/open`).set(member.auth)).status).toBe(403);
    expect((await stack.http.get(`/rooms/${room.id}`).set(member.auth)).status).toBe(200);
  });

  it('gates every VR route on the vr module (403 for a free organisation)', async () => {
    const free = await createAccount(stack);
    for (const req of [
      stack.http.get('/rooms'),
      stack.http.post('/rooms').send(body()),
      stack.http.get('/runtime/rooms'),
      stack.http.get('/reports/overview'),
      stack.http.get('/sessions'),
    ]) {
      const res = await req.set(free.auth);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('module_not_entitled');
    }
    const trial = await createAccount(stack, { trialModules: ['vr'] });
    expect((await stack.http.get('/rooms').set(trial.auth)).status).toBe(200);
    expect((await stack.http.get('/health')).status).toBe(200);
  });

  it('documents the VR routes in OpenAPI', async () => {
    const doc = await stack.http.get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/rooms',
        '/rooms/{id}',
        '/rooms/{id}/open',
        '/rooms/{id}/host',
        '/rooms/{id}/heartbeat',
        '/runtime/rooms',
        '/sessions/{id}/telemetry',
        '/reports/overview',
        '/reports/sessions',
        '/internal/ai/chat',
      ]),
    );
    const telemetry = doc.body.paths['/sessions/{id}/telemetry'].post;
    expect(telemetry.description).toContain('step_passed');
    expect(telemetry.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/TelemetryBody');
    const schemas = doc.body.components.schemas;
    expect(schemas.TelemetryBody.properties.events.items.$ref).toBe('#/components/schemas/TelemetryEventBody');
    expect(schemas.VrSessionDetailView.properties.participants.items.$ref).toBe(
      '#/components/schemas/VrParticipantView',
    );
    expect(Object.keys(schemas.VrOverviewView.properties)).toEqual(['totals', 'bySimulation', 'byRoom']);
  });
});
