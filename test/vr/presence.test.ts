import { startClock } from '../../cron/main';
import { schedules } from '../../cron/schedules';
import { sweepPresence } from '../../domain/vr/sweepPresence';
import { LiveRooms } from '../../domain/vr/store/liveRooms';
import { presenceSweepQueue } from '../../queues/vr';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, startFakeHub, vrOrg, type FakeHub, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

/** Presence lifetime under test: short, yet longer than a heartbeat round trip on a loaded CI machine. */
const TTL_MS = 2000;

describe('VR presence expiry', () => {
  let stack: TestStack;
  let hub: FakeHub;
  let org: VrOrg;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({
      env: { PRESENCE_TTL_SECONDS: String(TTL_MS / 1000), HUB_URL: hub.url, VR_WEBHOOK_SECRET: 'secret' },
    });
    org = await vrOrg(stack, 3);
  });
  afterAll(async () => {
    await stack.close();
    await hub.close();
  });

  const beat = (roomId: string, who = org.members[0]) =>
    stack.http.post(`/rooms/${roomId}/heartbeat`).set(who.auth).send({ displayName: 'Headset' });

  it('turns an expired presence into a departure, once, and the participant must join again', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, guest.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);

    // The host keeps beating; the guest falls silent. Sweeps run as jobs, the way the clock enqueues them.
    const departed = await eventually(async () => {
      await beat(room.id, host).expect(200);
      await stack.services.queues.add(presenceSweepQueue, {});
      const detail = await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth);
      return detail.body.participants.find(
        (p: { userId: string; leftAt: string | null }) => p.userId === guest.user.id && p.leftAt,
      );
    });
    expect(departed.leftAt).toBeTruthy();
    // Concurrent sweeps find nothing more to record.
    const again = await Promise.all([sweepPresence(stack.services), sweepPresence(stack.services)]);
    expect(again.map((r) => r.departures)).toEqual([0, 0]);

    await beat(room.id, host).expect(200);
    expect((await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth)).body.status).toBe('running');
    expect((await beat(room.id, guest)).body.code).toBe('not_joined');
    const presence = await stack.http.get(`/rooms/${room.id}/presence`).set(org.admin.auth);
    expect(presence.body.participants.map((p: { userId: string }) => p.userId)).toEqual([host.user.id]);
    await eventually(() =>
      hub.received.some((r) => r.body.event === 'participant.departed' && r.body.userId === guest.user.id),
    );
    const departures = hub.received.filter((r) => r.body.event === 'participant.departed' && r.body.roomId === room.id);
    expect(departures).toHaveLength(1);
    expect(departures[0].body).toMatchObject({ sessionId: session.id, data: { reason: 'timeout' } });

    // Joining again brings the guest back into the same session.
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await beat(room.id, guest).expect(200);
  });

  /** Waits until the member's presence in the room has expired (TTL_MS), no sweep running meanwhile; `keep` beats on. */
  const expired = (
    roomId: string,
    sessionId: string,
    who: { user: { id: string } },
    keep?: (typeof org.members)[number],
  ) =>
    eventually(
      async () => {
        if (keep) await beat(roomId, keep).expect(200);
        return (await new LiveRooms(stack.services).presenceOf(roomId, sessionId, who.user.id)).state === 'expired';
      },
      { what: 'the presence to expire' },
    );
  const hubEvents = (roomId: string, userId: string) =>
    hub.received
      .filter((r) => r.body.roomId === roomId && r.body.userId === userId)
      .map(
        (r) =>
          `${String(r.body.event)}${(r.body.data as { reason?: string }).reason ? `:${(r.body.data as { reason: string }).reason}` : ''}`,
      );

  it('does not let a heartbeat past the expiry revive the presence, even before any sweep: the departure is recorded at the expiry', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, guest.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    const lastBeat = Date.now();
    await beat(room.id, guest).expect(200);
    await expired(room.id, session.id, guest, host);

    expect((await beat(room.id, guest)).body.code).toBe('not_joined');
    await sweepPresence(stack.services);
    const detail = (await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth)).body;
    const left = detail.participants.find((p: { userId: string }) => p.userId === guest.user.id).leftAt as string;
    // The departure is the expiry (last heartbeat + TTL), not the time the sweep ran.
    expect(Date.parse(left)).toBeGreaterThanOrEqual(lastBeat + TTL_MS);
    // The beat reached the server after lastBeat, by as much as a loaded machine delays a request.
    expect(Date.parse(left)).toBeLessThan(lastBeat + TTL_MS + 1500);
    await eventually(() => hubEvents(room.id, guest.user.id).includes('participant.departed:timeout'));

    // Joining again is a new arrival.
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await beat(room.id, guest).expect(200);
    await eventually(
      () =>
        hubEvents(room.id, guest.user.id).join() ===
        'participant.arrived,participant.departed:timeout,participant.arrived',
    );
  });

  it('records a departure, then a new arrival, when someone joins again after their expiry and before the sweep', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, guest.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await expired(room.id, session.id, guest, host);
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await beat(room.id, guest).expect(200);
    await sweepPresence(stack.services);
    await eventually(() => hubEvents(room.id, guest.user.id).length === 3);
    expect(hubEvents(room.id, guest.user.id)).toEqual([
      'participant.arrived',
      'participant.departed:timeout',
      'participant.arrived',
    ]);
  });

  it('ends the session (host_timeout) when its host hosts again after their expiry, and starts a new one', async () => {
    const [host] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    const { body: first } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await expired(room.id, first.id, host);
    const { body: second } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    expect(second.id).not.toBe(first.id);
    expect((await stack.http.get(`/sessions/${first.id}`).set(org.admin.auth)).body).toMatchObject({
      status: 'ended',
      endReason: 'host_timeout',
    });
    await beat(room.id, host).expect(200);
    await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth).expect(200);
  });

  /** Runs `call`, returning the times just before and just after it: whatever it stamps lies between. */
  const timed = async <T>(call: () => Promise<T>): Promise<{ value: T; from: number; to: number }> => {
    const from = Date.now();
    const value = await call();
    return { value, from, to: Date.now() };
  };
  const detailOf = async (sessionId: string) =>
    (await stack.http.get(`/sessions/${sessionId}`).set(org.admin.auth)).body as {
      status: string;
      endReason: string | null;
      endedAt: string | null;
      participants: { userId: string; joinedAt: string | null; leftAt: string | null }[];
    };
  const sessionEnds = (sessionId: string) =>
    hub.received.filter((r) => r.body.event === 'session.ended' && r.body.sessionId === sessionId);

  it("refuses a join once the host's presence expired, before any sweep: that expiry ended the session (host_timeout)", async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, guest.user.id] });
    const hosted = await timed(() => stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201));
    const session = hosted.value.body as { id: string };
    await expired(room.id, session.id, host);

    const join = await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth);
    expect(join.status).toBe(409);
    expect(join.body.code).toBe('no_running_session');
    const detail = await detailOf(session.id);
    expect(detail).toMatchObject({ status: 'ended', endReason: 'host_timeout' });
    // Ended at the host's expiry, not when the join came; the guest never took part.
    expect(Date.parse(detail.endedAt!)).toBeGreaterThanOrEqual(hosted.from + TTL_MS);
    expect(Date.parse(detail.endedAt!)).toBeLessThanOrEqual(hosted.to + TTL_MS);
    expect(detail.participants.map((p) => p.userId)).toEqual([host.user.id]);
    expect((await stack.http.get(`/rooms/${room.id}`).set(org.admin.auth)).body.currentSessionId).toBeNull();
    expect((await beat(room.id, guest)).body.code).toBe('not_joined');

    // The sweep finds nothing more; the hub hears the end once and no arrival.
    await sweepPresence(stack.services); // finds nothing more of these to record
    await eventually(() => sessionEnds(session.id).length === 1);
    expect(sessionEnds(session.id)[0].body.data).toMatchObject({
      reason: 'host_timeout',
      participants: [host.user.id],
    });
    expect(hubEvents(room.id, guest.user.id)).toEqual([]);
    // The room is free: the guest may host it.
    await stack.http.post(`/rooms/${room.id}/host`).set(guest.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/leave`).set(guest.auth).expect(200);
  });

  it("lets another participant host once the host's presence expired, before any sweep: a new session starts", async () => {
    const [host, other] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, other.user.id] });
    const hosted = await timed(() => stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201));
    const first = hosted.value.body as { id: string };
    expect((await stack.http.post(`/rooms/${room.id}/host`).set(other.auth)).body.code).toBe('session_already_running');
    await expired(room.id, first.id, host);

    const { body: second } = await stack.http.post(`/rooms/${room.id}/host`).set(other.auth).expect(201);
    expect(second).toMatchObject({ hostUserId: other.user.id, status: 'running' });
    const ended = await detailOf(first.id);
    expect(ended).toMatchObject({ status: 'ended', endReason: 'host_timeout' });
    expect(Date.parse(ended.endedAt!)).toBeLessThanOrEqual(hosted.to + TTL_MS);
    await eventually(() => sessionEnds(first.id).length === 1);
    await stack.http.post(`/rooms/${room.id}/leave`).set(other.auth).expect(200);
  });

  it('answers 409 not_joined to a participant leaving after their expiry: the departure was the expiry (timeout)', async () => {
    const [host, guest] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id, guest.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    const joined = await timed(() => stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200));
    await expired(room.id, session.id, guest, host);

    const leave = await stack.http.post(`/rooms/${room.id}/leave`).set(guest.auth);
    expect(leave.status).toBe(409);
    expect(leave.body.code).toBe('not_joined');
    const detail = await detailOf(session.id);
    expect(detail.status).toBe('running');
    const left = detail.participants.find((p) => p.userId === guest.user.id)!;
    expect(Date.parse(left.leftAt!)).toBeGreaterThanOrEqual(joined.from + TTL_MS);
    expect(Date.parse(left.leftAt!)).toBeLessThanOrEqual(joined.to + TTL_MS);

    // Recorded once: the sweep and a second leave add nothing; the hub hears a timeout, not a leave.
    await beat(room.id, host).expect(200);
    await sweepPresence(stack.services); // finds nothing more of these to record
    expect((await stack.http.post(`/rooms/${room.id}/leave`).set(guest.auth)).body.code).toBe('not_joined');
    await eventually(() => hubEvents(room.id, guest.user.id).length === 2);
    expect(hubEvents(room.id, guest.user.id)).toEqual(['participant.arrived', 'participant.departed:timeout']);
    await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth).expect(200);
  });

  it('ends the session with host_timeout at the expiry when the host leaves after their expiry (409 not_joined)', async () => {
    const [host] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    const hosted = await timed(() => stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201));
    const session = hosted.value.body as { id: string };
    await expired(room.id, session.id, host);

    const leave = await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth);
    expect(leave.status).toBe(409);
    expect(leave.body.code).toBe('not_joined');
    const detail = await detailOf(session.id);
    expect(detail).toMatchObject({ status: 'ended', endReason: 'host_timeout' });
    expect(Date.parse(detail.endedAt!)).toBeGreaterThanOrEqual(hosted.from + TTL_MS);
    expect(Date.parse(detail.endedAt!)).toBeLessThanOrEqual(hosted.to + TTL_MS);
    expect(detail.participants[0].leftAt).toBe(detail.endedAt);

    await sweepPresence(stack.services); // finds nothing more of these to record
    await eventually(() => sessionEnds(session.id).length === 1);
    expect(sessionEnds(session.id)[0].body.data).toMatchObject({ reason: 'host_timeout' });
    await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    await stack.http.post(`/rooms/${room.id}/leave`).set(host.auth).expect(200);
    expect(sessionEnds(session.id)).toHaveLength(1);
  });

  it('counts only unexpired presence toward capacity: a join takes the seat of an expiry not swept yet', async () => {
    const [a, b, c] = org.members;
    const room = await createRoom(stack, org.admin, { capacity: 2, participantIds: [a.user.id, b.user.id, c.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(a.auth).expect(201);
    const joined = await timed(() => stack.http.post(`/rooms/${room.id}/join`).set(b.auth).expect(200));
    await expired(room.id, session.id, b, a);

    await stack.http.post(`/rooms/${room.id}/join`).set(c.auth).expect(200);
    // The room is full again (a and c present).
    expect((await stack.http.post(`/rooms/${room.id}/join`).set(b.auth)).body.code).toBe('room_full');
    const detail = await detailOf(session.id);
    const left = detail.participants.find((p) => p.userId === b.user.id)!;
    expect(Date.parse(left.leftAt!)).toBeGreaterThanOrEqual(joined.from + TTL_MS);
    expect(Date.parse(left.leftAt!)).toBeLessThanOrEqual(joined.to + TTL_MS);
    expect(detail.participants.find((p) => p.userId === c.user.id)).toMatchObject({
      joinedAt: expect.any(String),
      leftAt: null,
    });
    await sweepPresence(stack.services); // finds nothing more of these to record
    await eventually(() => hubEvents(room.id, b.user.id).length === 2);
    expect(hubEvents(room.id, b.user.id)).toEqual(['participant.arrived', 'participant.departed:timeout']);

    await stack.http.post(`/rooms/${room.id}/close`).set(org.admin.auth).expect(200);
  });

  it('survives a Redis that lost its data: live state comes back from PostgreSQL, and a silent host times out', async () => {
    const [beating, silent] = org.members;
    const rooms = [
      await createRoom(stack, org.admin, { participantIds: [beating.user.id] }),
      await createRoom(stack, org.admin, { participantIds: [silent.user.id] }),
    ];
    const alive = (await stack.http.post(`/rooms/${rooms[0].id}/host`).set(beating.auth).expect(201)).body;
    const stuck = (await stack.http.post(`/rooms/${rooms[1].id}/host`).set(silent.auth).expect(201)).body;

    // Redis restarted without persistence: every key of this deployment is gone.
    const keys = await stack.services.redis.keys(`${stack.config.REDIS_NAMESPACE}:*`);
    await stack.services.redis.del(...keys);
    expect((await beat(rooms[0].id, beating)).body.code).toBe('not_joined');

    // The next sweep restores the live state of both sessions; the host who still beats keeps theirs.
    expect((await sweepPresence(stack.services)).restored).toBeGreaterThanOrEqual(2);
    await beat(rooms[0].id, beating).expect(200);
    const ended = await eventually(
      async () => {
        await beat(rooms[0].id, beating).expect(200);
        await sweepPresence(stack.services);
        const res = await stack.http.get(`/sessions/${stuck.id}`).set(org.admin.auth);
        return res.body.status === 'ended' && res.body;
      },
      { intervalMs: 200 },
    );
    expect(ended.endReason).toBe('host_timeout');
    expect((await stack.http.get(`/sessions/${alive.id}`).set(org.admin.auth)).body.status).toBe('running');
    await stack.http.post(`/rooms/${rooms[0].id}/leave`).set(beating.auth).expect(200);
  });

  it('ends the session (host_timeout) when the host stops beating, through the clock schedule', async () => {
    const [host] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    const clock = startClock(
      stack.services,
      schedules.filter((s) => s.name === 'vr-presence-sweep'),
    );
    try {
      const ended = await eventually(
        async () => {
          const res = await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth);
          return res.body.status === 'ended' && res.body;
        },
        { timeoutMs: 12_000, intervalMs: 200 },
      );
      expect(ended).toMatchObject({
        endReason: 'host_timeout',
        participants: [expect.objectContaining({ userId: host.user.id, leftAt: expect.any(String) })],
      });
    } finally {
      await clock.stop();
    }
    expect((await stack.http.get(`/rooms/${room.id}`).set(org.admin.auth)).body.currentSessionId).toBeNull();
    expect((await beat(room.id, host)).body.code).toBe('not_joined');
    await eventually(() =>
      hub.received.some((r) => r.body.event === 'session.ended' && r.body.sessionId === session.id),
    );
    expect(
      hub.received.find((r) => r.body.event === 'session.ended' && r.body.sessionId === session.id)!.body.data,
    ).toMatchObject({ reason: 'host_timeout' });
    // The room is free for a new session.
    await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
  });
});
