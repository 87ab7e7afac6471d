import { addMember, createAccount, type Account } from '../../support/factories';
import { expectFieldErrors, expectProblem } from '../../support/identity';
import { startStack, type TestStack } from '../../support/stack';

/** Keyset pages of the booking reads (lean statements): ties on the start time, opaque cursors, owners. */
describe('core: booking read pages', () => {
  let stack: TestStack;
  let owner: Account;
  let member: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'business' });
    member = await addMember(stack, owner, 'member');
  });
  afterAll(() => stack.close());

  const pages = async (account: Account, path: string, limit: number) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 20; i++) {
      const res: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } = await stack.http
        .get(`${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
        .set(account.auth);
      expect(res.status).toBe(200);
      ids.push(...res.body.items.map((x) => x.id));
      cursor = res.body.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('no last page');
  };

  /** Cursors that are not one of these lists (an id, as they once were, or forged): 400 on `cursor`, never a 500. */
  const forged = [
    '00000000-0000-4000-8000-000000000000',
    'not-a-cursor',
    Buffer.from(JSON.stringify(['2031-02-30T10:00:00.000000Z', '00000000-0000-4000-8000-000000000000'])).toString(
      'base64url',
    ),
    Buffer.from(JSON.stringify(['2031-03-03T10:00:00.000000Z', 'nope'])).toString('base64url'),
    Buffer.from(JSON.stringify([3, '00000000-0000-4000-8000-000000000000'])).toString('base64url'),
    Buffer.from(JSON.stringify(['10000-01-01T00:00:00Z', '00000000-0000-4000-8000-000000000000'])).toString(
      'base64url',
    ),
    Buffer.from('["2031-03-03T10:00:00Z"').toString('base64url'),
    'x'.repeat(201),
  ];

  it('pages appointments by start then id, ties included; a forged cursor is a 400', async () => {
    const service = (
      await stack.http
        .post('/api/rdv/services')
        .set(owner.auth)
        .send({ name: 'Cut', durationMinutes: 30, priceCents: 1000 })
    ).body;
    const staff: { id: string }[] = [];
    for (const name of ['A', 'B', 'C'])
      staff.push((await stack.http.post('/api/rdv/staff').set(owner.auth).send({ displayName: name })).body);
    const made: { id: string; startAt: string; staffId: string }[] = [];
    for (const start of ['2031-03-03T10:00:00Z', '2031-03-03T09:00:00Z']) {
      for (const s of staff) {
        const res = await stack.http
          .post('/api/appointments')
          .set(owner.auth)
          .send({ serviceId: service.id, staffId: s.id, start, attendee: { name: 'Jo', email: 'jo@example.test' } });
        expect(res.status).toBe(201);
        made.push(res.body);
      }
    }
    const expected = [...made]
      .sort((a, b) => a.startAt.localeCompare(b.startAt) || a.id.localeCompare(b.id))
      .map((a) => a.id);
    expect(await pages(owner, '/api/appointments', 1)).toEqual(expected);
    expect(await pages(owner, '/api/appointments', 4)).toEqual(expected);
    for (const cursor of forged)
      expectFieldErrors(
        await stack.http.get('/api/appointments').query({ limit: 2, cursor }).set(owner.auth),
        'cursor',
      );
    // The cursor holds its position: the last item of a page rescheduled before the next page moves nothing.
    const first = await stack.http.get('/api/appointments?limit=2').set(owner.auth).expect(200);
    expect(first.body.items.map((x: { id: string }) => x.id)).toEqual(expected.slice(0, 2));
    const moved = await stack.http
      .patch(`/api/appointments/${expected[1]}`)
      .set(owner.auth)
      .send({ start: '2031-03-04T09:00:00Z' });
    expect(moved.status).toBe(200);
    const second = await stack.http
      .get('/api/appointments?limit=2')
      .query({ cursor: first.body.nextCursor })
      .set(owner.auth)
      .expect(200);
    expect(second.body.items.map((x: { id: string }) => x.id)).toEqual(expected.slice(2, 4));
    await stack.http
      .patch(`/api/appointments/${expected[1]}`)
      .set(owner.auth)
      .send({ start: made.find((m) => m.id === expected[1])!.startAt })
      .expect(200);
    expect(
      (
        await stack.http.get(`/api/appointments?staffId=${staff[1].id}&status=booked,confirmed`).set(owner.auth)
      ).body.items.map((x: { id: string }) => x.id),
    ).toEqual(expected.filter((id) => made.find((m) => m.id === id)!.staffId === staff[1].id));
    expect((await stack.http.get(`/api/appointments/${made[0].id}`).set(member.auth)).body).toEqual(made[0]);
    expectProblem(
      await stack.http.get('/api/appointments/00000000-0000-4000-8000-000000000000').set(owner.auth),
      404,
      'not_found',
    );
    // Another organisation sees none of them.
    const other = await createAccount(stack, { tier: 'business' });
    expect((await stack.http.get('/api/appointments').set(other.auth)).body.items).toEqual([]);
    expectProblem(await stack.http.get(`/api/appointments/${made[0].id}`).set(other.auth), 404, 'not_found');
    expectProblem(await stack.http.get(`/api/rdv/staff/${staff[0].id}`).set(other.auth), 404, 'not_found');
    expectProblem(await stack.http.get(`/api/rdv/services/${service.id}`).set(other.auth), 404, 'not_found');
  });

  it("pages the caller's calendar events by start then id; another member's are not listed nor read", async () => {
    const made: { id: string; startAt: string }[] = [];
    for (const startAt of [
      '2031-04-01T10:00:00Z',
      '2031-04-01T08:00:00Z',
      '2031-04-01T10:00:00Z',
      '2031-04-01T10:00:00Z',
      '2031-04-02T08:00:00Z',
    ]) {
      const res = await stack.http
        .post('/api/calendar/events')
        .set(member.auth)
        .send({ title: 'x', startAt, endAt: new Date(Date.parse(startAt) + 3_600_000).toISOString() });
      expect(res.status).toBe(201);
      made.push(res.body);
    }
    const expected = [...made]
      .sort((a, b) => a.startAt.localeCompare(b.startAt) || a.id.localeCompare(b.id))
      .map((e) => e.id);
    expect(await pages(member, '/api/calendar/events', 1)).toEqual(expected);
    expect(await pages(member, '/api/calendar/events', 2)).toEqual(expected);
    // Overlapping [from, to): the four events of the first day.
    expect(await pages(member, '/api/calendar/events?from=2031-04-01T00:00:00Z&to=2031-04-02T00:00:00Z', 3)).toEqual(
      expected.slice(0, 4),
    );
    expect(await pages(owner, '/api/calendar/events', 2)).toEqual([]);
    // Another member's cursor only positions the owner among their own events (none here): nothing of the member's.
    const theirs = (await stack.http.get('/api/calendar/events?limit=1').set(member.auth).expect(200)).body
      .nextCursor as string;
    expect(
      (await stack.http.get('/api/calendar/events').query({ cursor: theirs }).set(owner.auth).expect(200)).body.items,
    ).toEqual([]);
    for (const cursor of forged)
      expectFieldErrors(
        await stack.http.get('/api/calendar/events').query({ limit: 2, cursor }).set(member.auth),
        'cursor',
      );
    expect((await stack.http.get(`/api/calendar/events/${made[0].id}`).set(member.auth)).body).toEqual(made[0]);
    expectProblem(await stack.http.get(`/api/calendar/events/${made[0].id}`).set(owner.auth), 404, 'not_found');
  });
});
