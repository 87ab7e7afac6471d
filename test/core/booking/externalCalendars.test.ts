import { createAppPassword } from '../../support/appPasswords';
import { publishStorefront } from '../../support/booking';
import { createAccount, type Account } from '../../support/factories';
import { startRadicale, type Radicale } from '../../support/radicale';
import { startStack, type TestStack } from '../../support/stack';
import { eventually } from '../../support/wait';

const ALICE = { name: 'alice', password: 'radicale-secret' };

const vcalendar = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const single = (uid: string, start: string, end: string) =>
  vcalendar(
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20300101T000000Z',
    `DTSTART:${start}`,
    `DTEND:${end}`,
    'SUMMARY:Dentist',
    'END:VEVENT',
  );
// Tuesdays 09:00-10:00 in Paris from 4 June 2030, except 11 June.
const weekly = vcalendar(
  'BEGIN:VEVENT',
  'UID:yoga@radicale.test',
  'DTSTAMP:20300101T000000Z',
  'DTSTART;TZID=Europe/Paris:20300604T090000',
  'DTEND;TZID=Europe/Paris:20300604T100000',
  'RRULE:FREQ=WEEKLY;BYDAY=TU',
  'EXDATE;TZID=Europe/Paris:20300611T090000',
  'SUMMARY:Yoga',
  'END:VEVENT',
);

/** External calendars against a real Radicale server: sync, incremental changes, errors, availability. */
describe('core: external CalDAV calendars as busy time', () => {
  let stack: TestStack;
  let radicale: Radicale;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;
  let calendarUrl: string;

  beforeAll(async () => {
    radicale = await startRadicale({ [ALICE.name]: ALICE.password });
    stack = await startStack({ env: { CALENDAR_ALLOWED_HOSTS: '127.0.0.1' } });
    owner = await createAccount(stack, { tier: 'business' });
    ({ slug, serviceId, staffId } = await publishStorefront(stack, owner, 'ext'));
    expect((await radicale.request('MKCALENDAR', '/alice/work/', ALICE)).status).toBe(201);
    calendarUrl = `${radicale.url}/alice/work/`;
  });
  afterAll(async () => {
    await stack?.close();
    await radicale?.stop();
  });

  const slotsOn = async (from: string, to: string): Promise<string[]> => {
    const res = await stack.http.get(
      `/api/public/stores/${slug}/availability?serviceId=${serviceId}&staffId=${staffId}&from=${from}&to=${to}`,
    );
    expect(res.status).toBe(200);
    return res.body.slots.map((s: { start: string }) => s.start);
  };
  const connection = async (id: string) =>
    (await stack.http.get(`/api/calendar/connections/${id}`).set(owner.auth).expect(200)).body as {
      status: string;
      lastError: string | null;
      objects: number;
      lastSyncedAt: string | null;
    };

  it('syncs busy times (recurring ones at each occurrence), incrementally, and forgets them on disconnect', async () => {
    await radicale
      .request(
        'PUT',
        '/alice/work/dentist.ics',
        ALICE,
        single('dentist@radicale.test', '20300603T100000Z', '20300603T110000Z'),
      )
      .then((r) => expect(r.status).toBe(201));
    await radicale.request('PUT', '/alice/work/yoga.ics', ALICE, weekly).then((r) => expect(r.status).toBe(201));
    const made = await stack.http
      .post('/api/calendar/connections')
      .set(owner.auth)
      .send({ name: 'Radicale', url: calendarUrl, username: ALICE.name, password: ALICE.password })
      .expect(201);
    expect(made.body).toMatchObject({ status: 'pending', url: calendarUrl, username: 'alice', objects: 0 });
    expect(JSON.stringify(made.body)).not.toContain(ALICE.password);
    const id = made.body.id as string;
    const synced = await eventually(async () => ((await connection(id)).status === 'ok' ? connection(id) : null), {
      what: 'first sync',
    });
    expect(synced).toMatchObject({ status: 'ok', lastError: null, objects: 2 });

    // The dentist (10:00-11:00 UTC on Monday 3 June) and yoga (Tuesdays 07:00-08:00 UTC, not on 11 June).
    const monday = await slotsOn('2030-06-03T07:00:00Z', '2030-06-03T12:00:00Z');
    expect(monday).toContain('2030-06-03T08:00:00.000Z');
    expect(monday).not.toContain('2030-06-03T10:00:00.000Z');
    expect(monday).not.toContain('2030-06-03T09:30:00.000Z');
    const tuesdays = await slotsOn('2030-06-04T00:00:00Z', '2030-06-26T00:00:00Z');
    expect(tuesdays).not.toContain('2030-06-04T07:00:00.000Z');
    expect(tuesdays).toContain('2030-06-04T08:00:00.000Z');
    expect(tuesdays).toContain('2030-06-11T07:00:00.000Z');
    expect(tuesdays).not.toContain('2030-06-18T07:00:00.000Z');
    expect(tuesdays).not.toContain('2030-06-25T07:00:00.000Z');
    const refused = await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'V', email: 'v@example.test', serviceId, staffId, start: '2030-06-18T07:00:00Z' });
    expect([refused.status, refused.body.code]).toEqual([409, 'slot_taken']);

    // Incremental: the dentist moves to 14:00, yoga is deleted, a new event appears; a sync asked now sees it.
    await radicale
      .request(
        'PUT',
        '/alice/work/dentist.ics',
        ALICE,
        single('dentist@radicale.test', '20300603T140000Z', '20300603T150000Z'),
      )
      .then((r) => expect([201, 204]).toContain(r.status));
    await radicale.request('DELETE', '/alice/work/yoga.ics', ALICE).then((r) => expect(r.status).toBe(200));
    const before = synced.lastSyncedAt!;
    await stack.http.post(`/api/calendar/connections/${id}/sync`).set(owner.auth).expect(202);
    await eventually(
      async () => {
        const c = await connection(id);
        return c.lastSyncedAt !== before && c.status === 'ok' ? c : null;
      },
      { what: 'second sync' },
    );
    expect((await connection(id)).objects).toBe(1);
    const moved = await slotsOn('2030-06-03T07:00:00Z', '2030-06-03T16:00:00Z');
    expect(moved).toContain('2030-06-03T10:00:00.000Z');
    expect(moved).not.toContain('2030-06-03T14:00:00.000Z');
    expect(await slotsOn('2030-06-18T00:00:00Z', '2030-06-19T00:00:00Z')).toContain('2030-06-18T07:00:00.000Z');

    const list = await stack.http.get('/api/calendar/connections').set(owner.auth).expect(200);
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([id]);
    await stack.http.delete(`/api/calendar/connections/${id}`).set(owner.auth).expect(204);
    expect(await slotsOn('2030-06-03T13:00:00Z', '2030-06-03T16:00:00Z')).toContain('2030-06-03T14:00:00.000Z');
    await stack.http.get(`/api/calendar/connections/${id}`).set(owner.auth).expect(404);
  });

  it('discovers the calendars of an account URL; refused credentials and a server down show on the connection', async () => {
    const account = await stack.http
      .post('/api/calendar/connections')
      .set(owner.auth)
      .send({ url: `${radicale.url}/`, username: ALICE.name, password: ALICE.password })
      .expect(201);
    await radicale
      .request(
        'PUT',
        '/alice/work/dentist2.ics',
        ALICE,
        single('dentist2@radicale.test', '20300605T100000Z', '20300605T110000Z'),
      )
      .then((r) => expect(r.status).toBe(201));
    await stack.http.post(`/api/calendar/connections/${account.body.id}/sync`).set(owner.auth).expect(202);
    const discovered = await eventually(
      async () => {
        const c = await connection(account.body.id);
        if (c.status === 'error') throw new Error(c.lastError ?? 'error');
        return c.objects === 2 ? c : null;
      },
      { what: 'discovered objects' },
    );
    expect(discovered.status).toBe('ok');
    expect(await slotsOn('2030-06-05T07:00:00Z', '2030-06-05T12:00:00Z')).not.toContain('2030-06-05T10:00:00.000Z');

    const wrong = await stack.http
      .post('/api/calendar/connections')
      .set(owner.auth)
      .send({ url: `${calendarUrl}?wrong`, username: ALICE.name, password: 'not-the-password' })
      .expect(201);
    const failed = await eventually(
      async () => {
        const c = await connection(wrong.body.id);
        return c.status === 'error' ? c : null;
      },
      { what: 'refused sync' },
    );
    expect(failed.lastError).toMatch(/refused the user name or password \(401\)/);

    // A server that does not answer: the error is recorded, and the retries (with backoff) succeed once it is up.
    const down = await startRadicale({ [ALICE.name]: ALICE.password });
    const port = down.port;
    await down.stop();
    const late = await stack.http
      .post('/api/calendar/connections')
      .set(owner.auth)
      .send({ url: `http://127.0.0.1:${port}/alice/work/`, username: ALICE.name, password: ALICE.password })
      .expect(201);
    const unreachable = await eventually(
      async () => {
        const c = await connection(late.body.id);
        return c.status === 'error' ? c : null;
      },
      { what: 'unreachable sync' },
    );
    expect(unreachable.lastError).toMatch(/did not answer: ECONNREFUSED/);
  });

  it('expands recurring events written to our own CalDAV calendar', async () => {
    const dav = await createAppPassword(stack, owner, ['caldav']);
    const put = await fetch(`${stack.url}/dav/calendars/${owner.user.id}/personal/standup.ics`, {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from(`${dav.login}:${dav.password}`).toString('base64')}`,
        'content-type': 'text/calendar',
      },
      body: weekly.replace('UID:yoga@radicale.test', 'UID:standup@own.test').replaceAll('20300604T', '20300702T'),
    });
    expect([put.status, await put.text()]).toEqual([201, '']);
    const july = await slotsOn('2030-07-02T00:00:00Z', '2030-07-17T00:00:00Z');
    expect(july).not.toContain('2030-07-02T07:00:00.000Z');
    expect(july).not.toContain('2030-07-09T07:00:00.000Z');
    expect(july).not.toContain('2030-07-16T07:00:00.000Z');
    expect(july).toContain('2030-07-16T08:00:00.000Z');
  });

  it('keeps connections to their member: another organisation 404, bad input 4xx', async () => {
    const other = await createAccount(stack, { tier: 'business' });
    const mine = (await stack.http.get('/api/calendar/connections').set(owner.auth).expect(200)).body.items[0].id;
    await stack.http.get(`/api/calendar/connections/${mine}`).set(other.auth).expect(404);
    await stack.http.post(`/api/calendar/connections/${mine}/sync`).set(other.auth).expect(404);
    await stack.http.delete(`/api/calendar/connections/${mine}`).set(other.auth).expect(404);
    expect((await stack.http.get('/api/calendar/connections').set(other.auth).expect(200)).body.items).toEqual([]);
    await stack.http.get('/api/calendar/connections/not-a-uuid').set(owner.auth).expect(400);
    const bad = (body: object) => stack.http.post('/api/calendar/connections').set(owner.auth).send(body);
    expect((await bad({ url: calendarUrl, username: 'alice' })).status).toBe(400);
    expect((await bad({ url: 'ftp://example.com/cal', username: 'a', password: 'b' })).body.code).toBe(
      'calendar_url_refused',
    );
    expect((await bad({ url: 'https://10.0.0.1/cal', username: 'a', password: 'b' })).body.code).toBe(
      'calendar_url_refused',
    );
    expect((await bad({ url: 'not a url', username: 'a', password: 'b' })).status).toBe(422);
    const again = await bad({ url: `${radicale.url}/`, username: 'alice', password: 'x' });
    expect([again.status, again.body.code]).toEqual([409, 'calendar_already_connected']);
  });
});
