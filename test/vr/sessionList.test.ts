import { VrParticipant, VrSession } from '../../entities/vr/session';
import { expectProblem } from '../support/identity';
import { startStack, type TestStack } from '../support/stack';
import { vrOrg, type VrOrg } from '../support/vr';

/** GET /sessions (lean statement): filters, newest first, cursor pages; GET /sessions/{id} with its participants. */
describe('VR session history reads', () => {
  let stack: TestStack;
  let org: VrOrg;
  let other: VrOrg;
  const made: { id: string; roomId: string; simulation: string; status: 'running' | 'ended'; startedAt: Date }[] = [];
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    org = await vrOrg(stack, 2);
    other = await vrOrg(stack, 1);
    const em = stack.services.orm.em.fork();
    const rooms = ['0190d5e0-0000-7000-8000-000000000001', '0190d5e0-0000-7000-8000-000000000002'];
    for (let i = 0; i < 7; i++) {
      const status = i === 6 ? 'running' : 'ended';
      const startedAt = new Date(Date.UTC(2031, 0, 1 + i, 9));
      const s = em.create(VrSession, {
        tenantId: org.admin.tenantId,
        roomId: rooms[i % 2],
        roomName: `Room ${i % 2}`,
        simulation: i % 3 ? 'fire-safety-101' : 'first-aid',
        simulationSteps: 4,
        hostUserId: org.members[0].user.id,
        status,
        startedAt,
        endedAt: status === 'ended' ? new Date(startedAt.getTime() + 600_000) : null,
        endReason: status === 'ended' ? 'host_left' : null,
        eventsCount: i,
        lastEventAt: null,
      });
      made.push({ id: s.id, roomId: s.roomId, simulation: s.simulation, status, startedAt });
    }
    em.create(VrSession, {
      tenantId: other.admin.tenantId,
      roomId: rooms[0],
      roomName: 'Theirs',
      simulation: 'first-aid',
      simulationSteps: 4,
      hostUserId: other.members[0].user.id,
      status: 'ended',
      startedAt: new Date(),
      endedAt: new Date(),
      endReason: 'host_left',
      eventsCount: 0,
      lastEventAt: null,
    });
    const [host, guest] = org.members;
    em.create(VrParticipant, {
      tenantId: org.admin.tenantId,
      sessionId: made[0].id,
      userId: guest.user.id,
      displayName: null,
      isHost: false,
      joinedAt: null,
      leftAt: null,
      stepsPassed: 1,
      lastStep: 's1',
      eventsCount: 2,
      completedAt: null,
    });
    em.create(VrParticipant, {
      tenantId: org.admin.tenantId,
      sessionId: made[0].id,
      userId: host.user.id,
      displayName: 'Host',
      isHost: true,
      joinedAt: new Date(Date.UTC(2031, 0, 1, 9)),
      leftAt: null,
      stepsPassed: 4,
      lastStep: 's4',
      eventsCount: 9,
      completedAt: new Date(Date.UTC(2031, 0, 1, 9, 5)),
    });
    await em.flush();
  });
  afterAll(() => stack.close());

  const pages = async (query: string, limit: number) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const res: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await stack.http
        .get(`/sessions?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`)
        .set(org.admin.auth);
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((x) => x.id));
      cursor = res.body.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('no last page');
  };
  const newest = (keep: (s: (typeof made)[number]) => boolean) =>
    made
      .filter(keep)
      .map((s) => s.id)
      .sort()
      .reverse();

  it('lists newest first, filtered, in pages', async () => {
    expect(await pages('', 3)).toEqual(newest(() => true));
    expect(await pages(`&roomId=${made[1].roomId}`, 2)).toEqual(newest((s) => s.roomId === made[1].roomId));
    expect(await pages('&simulation=first-aid&status=ended', 1)).toEqual(
      newest((s) => s.simulation === 'first-aid' && s.status === 'ended'),
    );
    expect(await pages('&status=running', 5)).toEqual([made[6].id]);
    expect(await pages('&from=2031-01-03T09:00:00Z&to=2031-01-05T09:00:00Z', 5)).toEqual(
      newest((s) => s.startedAt >= new Date('2031-01-03T09:00:00Z') && s.startedAt < new Date('2031-01-05T09:00:00Z')),
    );
  });

  it('shows a session with its participants, first joined first, telemetry-only last; another organisation: 404', async () => {
    const res = await stack.http.get(`/sessions/${made[0].id}`).set(org.admin.auth);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: made[0].id, status: 'ended', eventsCount: 0, endReason: 'host_left' });
    expect(
      res.body.participants.map(
        (p: { displayName: string | null; joinedAt: string | null; progress: number; completed: boolean }) => [
          p.displayName,
          p.joinedAt,
          p.progress,
          p.completed,
        ],
      ),
    ).toEqual([
      ['Host', '2031-01-01T09:00:00.000Z', 1, true],
      [null, null, 0.25, false],
    ]);
    expectProblem(await stack.http.get(`/sessions/${made[0].id}`).set(other.admin.auth), 404, 'not_found');
    expect((await stack.http.get('/sessions').set(other.admin.auth)).body.items).toHaveLength(1);
  });
});
