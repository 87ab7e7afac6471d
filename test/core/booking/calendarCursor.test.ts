import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

/**
 * GET /api/calendar/events: the cursor holds the position of the last event (start to the microsecond, id), not
 * a row to look up again. Regression: it was the id of that event, and when the event was deleted before the next
 * page was asked for, the next page started again from the top (events shown twice).
 */
describe('core: calendar event cursors', () => {
  let stack: TestStack;
  let owner: Account;
  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack);
  });
  afterAll(() => stack.close());

  const titles = (res: { body: { items: { title: string }[] } }) => res.body.items.map((e) => e.title);

  it('continues after the last event of a page even when it was deleted meanwhile', async () => {
    for (const h of ['08', '09', '10', '11', '12']) {
      const res = await stack.http
        .post('/api/calendar/events')
        .set(owner.auth)
        .send({ title: `Call ${h}h`, startAt: `2030-01-07T${h}:00:00Z`, endAt: `2030-01-07T${h}:30:00Z` });
      expect(res.status).toBe(201);
    }
    const first = await stack.http.get('/api/calendar/events?limit=2').set(owner.auth);
    expect(first.status).toBe(200);
    expect(titles(first)).toEqual(['Call 08h', 'Call 09h']);
    // The user deletes the 09h call (e.g. from another tab) and scrolls on.
    await stack.http.delete(`/api/calendar/events/${first.body.items[1].id}`).set(owner.auth).expect(204);
    const second = await stack.http
      .get('/api/calendar/events?limit=2')
      .query({ cursor: first.body.nextCursor })
      .set(owner.auth);
    expect(second.status).toBe(200);
    expect(titles(second)).toEqual(['Call 10h', 'Call 11h']);
    const last = await stack.http
      .get('/api/calendar/events?limit=2')
      .query({ cursor: second.body.nextCursor })
      .set(owner.auth);
    expect({ titles: titles(last), nextCursor: last.body.nextCursor }).toEqual({
      titles: ['Call 12h'],
      nextCursor: null,
    });
  });

  it('keeps the start to the microsecond: events a fraction of a millisecond apart are each listed once', async () => {
    const other = await createAccount(stack);
    const ids: string[] = [];
    for (const title of ['a', 'b', 'c']) {
      const res = await stack.http
        .post('/api/calendar/events')
        .set(other.auth)
        .send({ title, startAt: '2030-02-01T10:00:00Z', endAt: '2030-02-01T11:00:00Z' });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // Starts as PostgreSQL keeps them (written by another client): 10:00:00.000900, .000500 and .000100, in that id order.
    const em = stack.services.orm.em.fork();
    for (const [i, micros] of [900, 500, 100].entries()) {
      await em
        .getConnection()
        .execute(`update calendar_events set start_at = start_at + interval '1 microsecond' * ? where id = ?`, [
          micros,
          ids[i],
        ]);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 5; i++) {
      const res: { body: { items: { title: string }[]; nextCursor: string | null } } = await stack.http
        .get('/api/calendar/events?limit=1')
        .query(cursor ? { cursor } : {})
        .set(other.auth)
        .expect(200);
      seen.push(...titles(res));
      cursor = res.body.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(['c', 'b', 'a']);
  });
});
