import { createHmac } from 'node:crypto';
import { addMember, createAccount } from '../support/factories';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, startFakeHub, vrOrg, type FakeHub, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

const SECRET = 'vr-hub-secret';

describe('VR room and session state table', () => {
  let stack: TestStack;
  let hub: FakeHub;
  let org: VrOrg;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({ env: { HUB_URL: hub.url, VR_WEBHOOK_SECRET: SECRET } });
    org = await vrOrg(stack, 3);
  });
  afterAll(async () => {
    await stack.close();
    await hub.close();
  });

  const ids = () => org.members.map((m) => m.user.id);
  const notes = (roomId: string) => hub.received.filter((r) => r.body.roomId === roomId).map((r) => r.body);
  const eventsOf = (roomId: string) => notes(roomId).map((n) => n.event);

  it('runs open -> host -> heartbeat -> join -> leave -> host leaves, notifying the hub', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    expect(room.status).toBe('open');

    // The headset sees the open room, with no session yet.
    const listed = await stack.http.get('/runtime/rooms').set(host.auth);
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: room.id, occupancy: 0, sessionRunning: false, session: null }),
    ]);

    const hosted = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth);
    expect(hosted.status).toBe(201);
    expect(hosted.body).toMatchObject({
      roomId: room.id,
      hostUserId: host.user.id,
      status: 'running',
      simulation: 'fire-safety-101',
      simulationSteps: 4,
    });
    const sessionId = hosted.body.id;
    expect(hosted.headers.location).toBe(`/sessions/${sessionId}`);

    const beat = await stack.http
      .post(`/rooms/${room.id}/heartbeat`)
      .set(host.auth)
      .send({ displayName: 'Ada (headset)', currentStep: 'extinguisher', isHost: true });
    expect(beat.status).toBe(200);
    expect(beat.body).toMatchObject({ sessionId, isHost: true, ttlSeconds: 60 });

    const joined = await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth);
    expect(joined.status).toBe(200);
    expect(joined.body.id).toBe(sessionId);
    // isHost comes from the session, not from the claim.
    await stack.http
      .post(`/rooms/${room.id}/heartbeat`)
      .set(guest.auth)
      .send({ displayName: 'Bob', currentStep: 3, isHost: true })
      .expect(200);

    const presence = await stack.http.get(`/rooms/${room.id}/presence`).set(org.admin.auth);
    expect(presence.body.sessionId).toBe(sessionId);
    expect(presence.body.participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          userId: host.user.id,
          displayName: 'Ada (headset)',
          currentStep: 'extinguisher',
          isHost: true,
        }),
        expect.objectContaining({ userId: guest.user.id, displayName: 'Bob', currentStep: '3', isHost: false }),
      ]),
    );
    const runtime = await stack.http.get('/runtime/rooms').set(guest.auth);
    expect(runtime.body.items[0]).toMatchObject({
      occupancy: 2,
      sessionRunning: true,
      session: { id: sessionId, hostUserId: host.user.id },
    });

    const left = await stack.http.post(`/rooms/${room.id}/leave`).set(guest.auth);
    expect(left.body).toEqual({ sessionId, sessionEnded: false });
    expect(
      (await stack.http.post(`/rooms/${room.id}/heartbeat`).set(guest.auth).send({ displayName: 'Bob' })).body.code,
    ).toBe('not_joined');

    const ended = await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth);
    expect(ended.body).toEqual({ sessionId, sessionEnded: true });

    const session = await stack.http.get(`/sessions/${sessionId}`).set(org.admin.auth);
    expect(session.body).toMatchObject({ status: 'ended', endReason: 'host_left' });
    expect(session.body.endedAt).toBeTruthy();
    expect(session.body.participants).toEqual([
      expect.objectContaining({ userId: host.user.id, isHost: true, leftAt: expect.any(String) }),
      expect.objectContaining({ userId: guest.user.id, isHost: false, leftAt: expect.any(String) }),
    ]);
    const after = await stack.http.get(`/rooms/${room.id}`).set(org.admin.auth);
    expect(after.body).toMatchObject({ status: 'open', currentSessionId: null });
    expect((await stack.http.get(`/rooms/${room.id}/presence`).set(org.admin.auth)).body.participants).toEqual([]);

    await eventually(() => eventsOf(room.id).length >= 5);
    expect(eventsOf(room.id)).toEqual([
      'room.opened',
      'session.started',
      'participant.arrived',
      'participant.departed',
      'session.ended',
    ]);
    const [, started, arrived, departed, end] = notes(room.id);
    expect(started).toMatchObject({ sessionId, userId: host.user.id, tenantId: org.admin.tenantId });
    expect(arrived).toMatchObject({ sessionId, userId: guest.user.id });
    expect(departed).toMatchObject({ userId: guest.user.id, data: { reason: 'left' } });
    expect(end).toMatchObject({ sessionId, data: { reason: 'host_left', participants: [host.user.id] } });
    // Authenticated by the shared secret, and signed.
    const delivery = hub.received.find((r) => r.body.event === 'session.ended')!;
    expect(delivery.path).toBe('/vr/notify');
    expect(delivery.headers['x-webhook-secret']).toBe(SECRET);
    expect(delivery.headers['x-webhook-signature']).toBe(
      `sha256=${createHmac('sha256', SECRET).update(delivery.raw).digest('hex')}`,
    );

    // The room can be hosted again: a new session, history kept.
    const again = await stack.http.post(`/rooms/${room.id}/host`).set(guest.auth);
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(sessionId);
    const history = await stack.http.get(`/sessions?roomId=${room.id}`).set(org.admin.auth);
    expect(history.body.items.map((s: { id: string }) => s.id)).toEqual([again.body.id, sessionId]);
  });

  it('refuses a second host while a session runs; the host retrying gets the session back', async () => {
    const [host, other] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    const first = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    const second = await stack.http.post(`/rooms/${room.id}/host`).set(other.auth);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('session_already_running');
    const retry = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth);
    expect(retry.status).toBe(200);
    expect(retry.body.id).toBe(first.body.id);
  });

  it('closing a room ends its session (room_closed), clears presence and hides it from headsets', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);

    const closed = await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ status: 'closed', currentSessionId: null, closedAt: expect.any(String) });
    const ended = await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth);
    expect(ended.body).toMatchObject({ status: 'ended', endReason: 'room_closed' });
    expect(ended.body.participants.every((p: { leftAt: string | null }) => p.leftAt)).toBe(true);
    expect((await stack.http.get(`/rooms/${room.id}/presence`).set(org.admin.auth)).body.participants).toEqual([]);

    // A closed room: invisible to headsets, refuses host and join.
    expect(
      (await stack.http.get('/runtime/rooms').set(host.auth)).body.items.map((r: { id: string }) => r.id),
    ).not.toContain(room.id);
    for (const action of ['host', 'join']) {
      const res = await stack.http.post(`/rooms/${room.id}/${action}`).set(guest.auth);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('room_closed');
    }
    expect(
      (await stack.http.post(`/rooms/${room.id}/heartbeat`).set(host.auth).send({ displayName: 'x' })).body.code,
    ).toBe('not_joined');
    // Closing again changes nothing.
    expect((await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth)).status).toBe(200);

    await eventually(() => eventsOf(room.id).includes('room.closed'));
    expect(eventsOf(room.id)).toEqual([
      'room.opened',
      'session.started',
      'participant.arrived',
      'session.ended',
      'room.closed',
    ]);
    expect(notes(room.id)[3]).toMatchObject({ data: { reason: 'room_closed' } });
    expect((notes(room.id)[3].data as { participants: string[] }).participants.sort()).toEqual(
      [host.user.id, guest.user.id].sort(),
    );
  });

  it('a new room is closed: invisible until opened', async () => {
    const room = await createRoom(stack, org.admin, { participantIds: ids() }, { open: false });
    const [member] = org.members;
    expect(
      (await stack.http.get('/runtime/rooms').set(member.auth)).body.items.map((r: { id: string }) => r.id),
    ).not.toContain(room.id);
    expect((await stack.http.post(`/rooms/${room.id}/host`).set(member.auth)).body.code).toBe('room_closed');
  });

  it('enforces capacity on the participants present (room_full)', async () => {
    const [a, b, c] = org.members;
    const room = await createRoom(stack, org.admin, { capacity: 2, participantIds: ids() });
    await stack.http.post(`/rooms/${room.id}/host`).set(a.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(b.auth).expect(200);
    const full = await stack.http.post(`/rooms/${room.id}/join`).set(c.auth);
    expect(full.status).toBe(409);
    expect(full.body.code).toBe('room_full');
    // A departure frees the place; joining twice changes nothing.
    await stack.http.post(`/rooms/${room.id}/leave`).set(b.auth).expect(200);
    await stack.http.post(`/rooms/${room.id}/join`).set(c.auth).expect(200);
    await stack.http.post(`/rooms/${room.id}/join`).set(c.auth).expect(200);
    expect((await stack.http.post(`/rooms/${room.id}/join`).set(b.auth)).body.code).toBe('room_full');
  });

  it('solo rooms hold one participant; only assigned users take part', async () => {
    const [a, b, c] = org.members;
    const solo = await createRoom(stack, org.admin, {
      mode: 'solo',
      capacity: undefined,
      participantIds: [a.user.id, b.user.id],
    });
    await stack.http.post(`/rooms/${solo.id}/host`).set(a.auth).expect(201);
    expect((await stack.http.post(`/rooms/${solo.id}/join`).set(b.auth)).body.code).toBe('room_full');
    const notAssigned = await stack.http.post(`/rooms/${solo.id}/join`).set(c.auth);
    expect(notAssigned.status).toBe(403);
    expect(notAssigned.body.code).toBe('not_assigned');
    expect(
      (await stack.http.get('/runtime/rooms').set(c.auth)).body.items.map((r: { id: string }) => r.id),
    ).not.toContain(solo.id);
  });

  it('instructor-led rooms are hosted by an instructor (vr.rooms.manage)', async () => {
    const [a] = org.members;
    const room = await createRoom(stack, org.admin, { mode: 'instructor_led', participantIds: [a.user.id] });
    const refused = await stack.http.post(`/rooms/${room.id}/host`).set(a.auth);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('instructor_required');
    await stack.http.post(`/rooms/${room.id}/host`).set(org.admin.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(a.auth).expect(200);
  });

  it('answers join without a session, leave without presence, and other tenants with 404', async () => {
    const [a, b] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    expect((await stack.http.post(`/rooms/${room.id}/join`).set(a.auth)).body.code).toBe('no_running_session');
    expect((await stack.http.post(`/rooms/${room.id}/leave`).set(a.auth)).body.code).toBe('not_joined');
    await stack.http.post(`/rooms/${room.id}/host`).set(a.auth).expect(201);
    expect((await stack.http.post(`/rooms/${room.id}/leave`).set(b.auth)).body.code).toBe('not_joined');
    expect((await stack.http.post(`/rooms/${room.id}/heartbeat`).set(b.auth).send({ displayName: 'B' })).status).toBe(
      409,
    );

    const stranger = await createAccount(stack, { tier: 'pro' });
    for (const action of ['host', 'join', 'leave'])
      expect((await stack.http.post(`/rooms/${room.id}/${action}`).set(stranger.auth)).status).toBe(404);
    expect(
      (await stack.http.post(`/rooms/${room.id}/heartbeat`).set(stranger.auth).send({ displayName: 'S' })).status,
    ).toBe(404);
    const sessions = await stack.http.get('/sessions').set(stranger.auth);
    expect(sessions.body.items).toEqual([]);
  });

  it('validates heartbeats and refuses a room being deleted while a session runs', async () => {
    const [a] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    await stack.http.post(`/rooms/${room.id}/host`).set(a.auth).expect(201);
    const bad = await stack.http
      .post(`/rooms/${room.id}/heartbeat`)
      .set(a.auth)
      .send({ displayName: '', currentStep: 'x'.repeat(201), isHost: 'yes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'currentStep',
      'displayName',
      'isHost',
    ]);
    const del = await stack.http.delete(`/rooms/${room.id}`).set(org.admin.auth);
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('session_running');
  });

  it('needs vr.play for the headset routes', async () => {
    const room = await createRoom(stack, org.admin, { participantIds: ids() });
    // A role without vr.play: created through the same RBAC tables the identity module uses.
    const viewer = await addMember(stack, org.admin, 'member');
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(
        `update roles set permissions = array_remove(permissions, 'vr.play') where tenant_id = ? and key = 'member'`,
        [org.admin.tenantId],
      );
    await stack.services.permissions.invalidate(org.admin.tenantId);
    const res = await stack.http.post(`/rooms/${room.id}/host`).set(viewer.auth);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('permission_denied');
    await stack.services.orm.em
      .fork()
      .getConnection()
      .execute(
        `update roles set permissions = array_append(permissions, 'vr.play') where tenant_id = ? and key = 'member'`,
        [org.admin.tenantId],
      );
    await stack.services.permissions.invalidate(org.admin.tenantId);
  });
});

describe('VR hub notifications', () => {
  it('never fail a request when the hub is down, and retry a failing hub briefly', async () => {
    const hub = await startFakeHub();
    const stack = await startStack({ env: { HUB_URL: hub.url, VR_WEBHOOK_SECRET: SECRET } });
    try {
      const org = await vrOrg(stack, 1);
      hub.status = 503;
      const room = await createRoom(stack, org.admin, { participantIds: [org.members[0].user.id] }, { open: false });
      await stack.http.post(`/rooms/${room.id}/open`).set(org.admin.auth).expect(200);
      // Three attempts, then the notification is dropped (kept failed in the queue).
      const queue = stack.services.queues.list().find((q) => q.name === 'hub-notifications')!;
      await eventually(async () => (await queue.getFailedCount()) === 1);
      const [failed] = await queue.getFailed();
      expect(failed.attemptsMade).toBe(3);
      hub.status = 204;
      await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth).expect(200);
      await eventually(() => hub.events().includes('room.closed'));
    } finally {
      await stack.close();
      await hub.close();
    }
  });

  it('enqueues nothing without HUB_URL, and rooms work', async () => {
    const stack = await startStack({ workers: false });
    try {
      const org = await vrOrg(stack, 1);
      const room = await createRoom(stack, org.admin, { participantIds: [org.members[0].user.id] });
      await stack.http.post(`/rooms/${room.id}/host`).set(org.members[0].auth).expect(201);
      const queue = stack.services.queues.list().find((q) => q.name === 'hub-notifications')!;
      expect(await queue.count()).toBe(0);
    } finally {
      await stack.close();
    }
  });
});
