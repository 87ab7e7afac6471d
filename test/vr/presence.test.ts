import { startClock } from '../../cron/main';
import { schedules } from '../../cron/schedules';
import { sweepPresence } from '../../domain/vr/sweepPresence';
import { presenceSweepQueue } from '../../queues/vr';
import { startStack, type TestStack } from '../support/stack';
import { createRoom, startFakeHub, vrOrg, type FakeHub, type VrOrg } from '../support/vr';
import { eventually } from '../support/wait';

describe('VR presence expiry', () => {
  let stack: TestStack;
  let hub: FakeHub;
  let org: VrOrg;
  beforeAll(async () => {
    hub = await startFakeHub();
    stack = await startStack({ env: { PRESENCE_TTL_SECONDS: '1', HUB_URL: hub.url, VR_WEBHOOK_SECRET: 'secret' } });
    org = await vrOrg(stack, 2);
  });
  afterAll(async () => {
    await stack.close();
    await hub.close();
  });

  const beat = (roomId: string, who = org.members[0]) => stack.http.post(`/rooms/${roomId}/heartbeat`).set(who.auth).send({ displayName: 'Headset' });

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
      return detail.body.participants.find((p: { userId: string; leftAt: string | null }) => p.userId === guest.user.id && p.leftAt);
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
    await eventually(() => hub.received.some((r) => r.body.event === 'participant.departed' && r.body.userId === guest.user.id));
    const departures = hub.received.filter((r) => r.body.event === 'participant.departed' && r.body.roomId === room.id);
    expect(departures).toHaveLength(1);
    expect(departures[0].body).toMatchObject({ sessionId: session.id, data: { reason: 'timeout' } });

    // Joining again brings the guest back into the same session.
    await stack.http.post(`/rooms/${room.id}/join`).set(guest.auth).expect(200);
    await beat(room.id, guest).expect(200);
  });

  it('ends the session (host_timeout) when the host stops beating, through the clock schedule', async () => {
    const [host] = org.members;
    const room = await createRoom(stack, org.admin, { participantIds: [host.user.id] });
    const { body: session } = await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
    const clock = startClock(stack.services, schedules.filter((s) => s.name === 'vr-presence-sweep'));
    try {
      const ended = await eventually(async () => {
        const res = await stack.http.get(`/sessions/${session.id}`).set(org.admin.auth);
        return res.body.status === 'ended' && res.body;
      }, { timeoutMs: 12_000, intervalMs: 200 });
      expect(ended).toMatchObject({ endReason: 'host_timeout', participants: [expect.objectContaining({ userId: host.user.id, leftAt: expect.any(String) })] });
    } finally {
      await clock.stop();
    }
    expect((await stack.http.get(`/rooms/${room.id}`).set(org.admin.auth)).body.currentSessionId).toBeNull();
    expect((await beat(room.id, host)).body.code).toBe('not_joined');
    await eventually(() => hub.received.some((r) => r.body.event === 'session.ended' && r.body.sessionId === session.id));
    expect(hub.received.find((r) => r.body.event === 'session.ended' && r.body.sessionId === session.id)!.body.data).toMatchObject({ reason: 'host_timeout' });
    // The room is free for a new session.
    await stack.http.post(`/rooms/${room.id}/host`).set(host.auth).expect(201);
  });
});
