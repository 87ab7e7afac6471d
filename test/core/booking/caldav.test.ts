import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createDAVClient } from 'tsdav';
import { createAppPassword } from '../../support/appPasswords';
import { publishStorefront } from '../../support/booking';
import { createAccount, type Account } from '../../support/factories';
import { startStack, type TestStack } from '../../support/stack';

const run = promisify(execFile);
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

/** The CalDAV server against real clients: Debian's python3-caldav (a phone's app) and the tsdav npm package. */
describe('core: CalDAV server', () => {
  let stack: TestStack;
  let owner: Account;
  let slug: string;
  let serviceId: string;
  let staffId: string;
  let dav: { login: string; password: string; id: string };
  let calendarUrl: string;

  beforeAll(async () => {
    stack = await startStack({ workers: false });
    owner = await createAccount(stack, { tier: 'business' });
    ({ slug, serviceId, staffId } = await publishStorefront(stack, owner, 'dav'));
    dav = await createAppPassword(stack, owner, ['caldav']);
    calendarUrl = `${stack.url}/dav/calendars/${owner.user.id}/personal/`;
  });
  afterAll(() => stack.close());

  const slotsOn = async (from: string, to: string) =>
    (
      await stack.http.get(
        `/api/public/stores/${slug}/availability?serviceId=${serviceId}&staffId=${staffId}&from=${from}&to=${to}`,
      )
    ).body.slots.map((s: { start: string }) => s.start);

  it('serves python3-caldav: discovery, PUT across the DST change, search, sync by token, free-busy; the event blocks booking', async () => {
    const { stdout } = await run('/usr/bin/python3', [
      `${__dirname}/peers/caldav_client.py`,
      `${stack.url}/dav/`,
      dav.login,
      dav.password,
    ]);
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.principal).toBe(`${stack.url}/dav/principals/${owner.user.id}/`);
    expect(out.calendars).toEqual([calendarUrl]);
    expect(out.found).toEqual(['Dentist']);
    expect(out.changed).toEqual([out.event_url]);
    // Moved to 12:00-13:00 in Paris on the first day of summer time: 10:00-11:00 UTC.
    expect(out.freebusy).toContain('FREEBUSY;FBTYPE=BUSY:20300331T100000Z/20300331T110000Z');
    const events = await stack.http
      .get('/api/calendar/events?from=2030-03-31T00:00:00Z&to=2030-04-01T00:00:00Z')
      .set(owner.auth)
      .expect(200);
    expect(events.body.items).toMatchObject([
      { title: 'Dentist', startAt: '2030-03-31T10:00:00.000Z', endAt: '2030-03-31T11:00:00.000Z', busy: true },
    ]);
    const slots = await slotsOn('2030-03-31T08:00:00Z', '2030-03-31T12:00:00Z');
    expect(slots).toContain('2030-03-31T09:00:00.000Z');
    expect(slots).not.toContain('2030-03-31T10:00:00.000Z');
    expect(slots).not.toContain('2030-03-31T09:30:00.000Z');
    const refused = await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'V', email: 'v@example.test', serviceId, staffId, start: '2030-03-31T10:00:00Z' });
    expect([refused.status, refused.body.code]).toEqual([409, 'slot_taken']);
  });

  it('serves tsdav: well-known discovery, appointments appear read only, create and delete with ETags', async () => {
    await stack.http
      .post(`/api/public/stores/${slug}/bookings`)
      .send({ name: 'Paul', email: 'paul@example.test', serviceId, staffId, start: '2030-04-01T08:00:00Z' })
      .expect(201);
    const client = await createDAVClient({
      serverUrl: stack.url,
      credentials: { username: dav.login, password: dav.password },
      authMethod: 'Basic',
      defaultAccountType: 'caldav',
    });
    const calendars = await client.fetchCalendars();
    expect(calendars.map((c) => c.url)).toEqual([calendarUrl]);
    const objects = await client.fetchCalendarObjects({
      calendar: calendars[0],
      timeRange: { start: '2030-03-30T00:00:00Z', end: '2030-04-02T00:00:00Z' },
    });
    const texts = objects.map((o) => String(o.data));
    expect(texts.some((t) => t.includes('SUMMARY:Visite: Paul'))).toBe(true);
    expect(texts.some((t) => t.includes('SUMMARY:Dentist'))).toBe(true);
    const appointment = objects.find((o) => String(o.data).includes('Visite: Paul'))!;
    expect((await client.deleteCalendarObject({ calendarObject: appointment })).status).toBe(403);
    const created = await client.createCalendarObject({
      calendar: calendars[0],
      filename: 'lunch-2030.ics',
      iCalString: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//tsdav test//EN',
        'BEGIN:VEVENT',
        'UID:lunch-2030@tsdav.example',
        'DTSTAMP:20300101T000000Z',
        'DTSTART;VALUE=DATE:20301027',
        'DTEND;VALUE=DATE:20301028',
        'SUMMARY:Day off',
        'TRANSP:OPAQUE',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    });
    expect(created.status).toBe(201);
    // An all-day event on the last day of summer time in Paris: local midnight to local midnight (25 hours).
    const dayOff = (
      await stack.http
        .get('/api/calendar/events?from=2030-10-27T00:00:00Z&to=2030-10-29T00:00:00Z')
        .set(owner.auth)
        .expect(200)
    ).body.items;
    expect(dayOff).toMatchObject([
      { title: 'Day off', allDay: true, startAt: '2030-10-26T22:00:00.000Z', endAt: '2030-10-27T23:00:00.000Z' },
    ]);
    const etag = created.headers.get('etag')!;
    const url = `${calendarUrl}lunch-2030.ics`;
    const stale = await stack.http
      .delete(new URL(url).pathname)
      .set('Authorization', basic(dav.login, dav.password))
      .set('If-Match', '"e0"');
    expect(stale.status).toBe(412);
    expect((await client.deleteCalendarObject({ calendarObject: { url, etag } })).status).toBe(204);
    expect(
      (await stack.http.get(new URL(url).pathname).set('Authorization', basic(dav.login, dav.password))).status,
    ).toBe(404);
  });

  it("answers bad XML, huge bodies, bad iCalendar and wrong or revoked credentials in the protocol's terms", async () => {
    const path = new URL(calendarUrl).pathname;
    const auth = basic(dav.login, dav.password);
    const propfind = (body: string, authorization = auth) =>
      stack.http
        .propfind(path)
        .set('Authorization', authorization)
        .set('Depth', '0')
        .set('Content-Type', 'application/xml')
        .send(body);
    expect((await propfind('<d:propfind xmlns:d="DAV:"><d:prop>')).status).toBe(400);
    expect((await propfind('<!DOCTYPE x [<!ENTITY a "aaaa">]><x>&a;</x>')).status).toBe(400);
    expect((await propfind(`<x>${'a'.repeat(2 * 1024 * 1024)}</x>`)).status).toBe(413);
    const wrong = await propfind('<d:propfind xmlns:d="DAV:"><d:allprop/></d:propfind>', basic(dav.login, 'ps_wrong'));
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect((await stack.http.propfind(path).set('Depth', '0')).status).toBe(401);
    // The account password is never a DAV credential, nor an app password of another scope.
    expect((await propfind('', basic(owner.email, owner.password))).status).toBe(401);
    const webdav = await createAppPassword(stack, owner, ['webdav']);
    expect((await propfind('', basic(webdav.login, webdav.password))).status).toBe(401);
    const bad = await stack.http
      .put(`${path}broken.ics`)
      .set('Authorization', auth)
      .set('Content-Type', 'text/calendar')
      .send('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:no uid\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n');
    expect(bad.status).toBe(403);
    expect(bad.text).toContain('valid-calendar-data');
    const ok = await propfind('<d:propfind xmlns:d="DAV:"><d:prop><d:sync-token/></d:prop></d:propfind>');
    expect(ok.status).toBe(207);
    // Apple's first request: PROPFIND on the well-known address, redirected to the root (RFC 6764).
    const apple = await stack.http.propfind('/.well-known/caldav').set('Authorization', auth).set('Depth', '0');
    expect([apple.status, apple.headers.location]).toEqual([301, '/dav/']);
    // Thunderbird's: the root's principal, then the home, in one PROPFIND each.
    const root = await stack.http
      .propfind('/dav/')
      .set('Authorization', auth)
      .set('Depth', '0')
      .send(
        '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><D:prop><D:resourcetype/><D:current-user-principal/><C:calendar-home-set/><D:owner/></D:prop></D:propfind>',
      );
    expect(root.status).toBe(207);
    expect(root.text).toContain(`<d:href>/dav/principals/${owner.user.id}/</d:href>`);
    expect(root.text).toContain(`<d:href>/dav/calendars/${owner.user.id}/</d:href>`);
    expect(root.text).toContain('HTTP/1.1 404 Not Found');
    const options = await stack.http.options(path);
    expect(options.headers.dav).toContain('calendar-access');
    // Another member's calendar does not exist for this one.
    expect(
      (
        await stack.http
          .propfind('/dav/calendars/00000000-0000-4000-8000-000000000000/personal/')
          .set('Authorization', auth)
      ).status,
    ).toBe(404);
    await stack.http.delete(`/auth/app-passwords/${dav.id}`).set(owner.auth).expect(204);
    expect((await propfind('')).status).toBe(401);
  });
});
